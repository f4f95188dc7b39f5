/// Renders an app's desktop entry (SPEC §8): `Exec` routes through `deeplinker open --app ID %u`,
/// `MimeType` claims each scheme, `Actions` are the app's shortcuts. `desktop-file-validate` clean.
public enum DesktopEntry {
    /// The entry's text. `shortcuts` nil = every shortcut of the route file.
    public static func render(config: AppConfig, shortcuts: [String]? = nil, executable: String = "deeplinker") -> String {
        let exec = quoteExecArgument(executable)
        let published = shortcuts.map { types in config.shortcuts.filter { types.contains($0.type) } } ?? config.shortcuts
        var lines = [
            "[Desktop Entry]",
            "Type=Application",
            "Version=1.4",
            "Name=\(escape(config.name ?? config.appID))",
            "Comment=\(escape("Opens \(config.name ?? config.appID) through Deeplinker"))",
            "Exec=\(exec) open --app \(config.appID) %u",
            "Icon=\(config.appID)",
            "Terminal=false",
            "StartupNotify=true",
        ]
        if !config.schemes.isEmpty {
            lines.append("MimeType=" + handlerSchemes(config).map { "x-scheme-handler/\($0);" }.joined())
        }
        return withActions(lines, config: config, published: published, exec: exec)
    }

    /// An installed entry with its `Actions` replaced by the published shortcut `types` (SPEC §8:
    /// `SetShortcuts` rewrites an installed entry's actions). Everything else in the main group is
    /// kept; the actions' `Exec` uses the program of the main group's `Exec`.
    public static func replacingActions(in text: String, config: AppConfig, shortcuts types: [String]) -> String {
        var main: [String] = []
        var exec = "deeplinker"
        var inMain = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("[") {
                inMain = line == "[Desktop Entry]"
                if inMain { main.append(line) }
                continue
            }
            guard inMain, !line.hasPrefix("Actions=") else { continue }
            if line.hasPrefix("Exec="), let program = firstExecArgument(String(line.dropFirst(5))) { exec = program }
            main.append(line)
        }
        while main.last?.isEmpty == true { main.removeLast() }
        let published = config.shortcuts.filter { types.contains($0.type) }
        return withActions(main, config: config, published: published, exec: exec)
    }

    /// Where `deeplinker install-desktop` puts an app's entry and the daemon looks for it:
    /// `$XDG_DATA_HOME/applications/ID.desktop`, else under `$HOME/.local/share`; nil when neither
    /// is an absolute path.
    public static func installedPath(appID: String, environment: [String: String]) -> String? {
        let dataHome: String
        if let configured = environment["XDG_DATA_HOME"], configured.hasPrefix("/") {
            dataHome = configured
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            dataHome = home + "/.local/share"
        } else {
            return nil
        }
        return dataHome + "/applications/" + appID + ".desktop"
    }

    /// The schemes to register a handler for: each lowercase scheme, then its spelling in the file
    /// when that differs (`xdg-open deeplinkTutorial://…` looks up `x-scheme-handler/deeplinkTutorial`).
    public static func handlerSchemes(_ config: AppConfig) -> [String] {
        var out: [String] = []
        for (index, scheme) in config.schemes.enumerated() {
            out.append(scheme)
            if index < config.schemeSpellings.count, config.schemeSpellings[index] != scheme {
                out.append(config.schemeSpellings[index])
            }
        }
        return out
    }

    /// `lines` (the main group) followed by `Actions=` and one group per published shortcut.
    private static func withActions(_ lines: [String], config: AppConfig, published: [ShortcutConfig], exec: String) -> String {
        var lines = lines
        let ids = actionIDs(published.map(\.type))
        if !published.isEmpty {
            lines.append("Actions=" + ids.map { $0 + ";" }.joined())
        }
        for (shortcut, id) in zip(published, ids) {
            lines.append("")
            lines.append("[Desktop Action \(id)]")
            lines.append("Name=\(escape(shortcut.title))")
            if let icon = shortcut.icon, !icon.isEmpty { lines.append("Icon=\(escape(icon))") }
            lines.append("Exec=\(exec) shortcut \(config.appID) \(quoteExecArgument(shortcut.type))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The program of an `Exec` value, quoted as written (`deeplinker`, `"/opt/my tools/deeplinker"`).
    static func firstExecArgument(_ exec: String) -> String? {
        let trimmed = exec.drop { $0 == " " }
        guard let first = trimmed.first else { return nil }
        if first == "\"" {
            var escaped = false
            for index in trimmed.indices.dropFirst() {
                let c = trimmed[index]
                if escaped { escaped = false; continue }
                if c == "\\" { escaped = true; continue }
                if c == "\"" { return String(trimmed[...index]) }
            }
            return nil
        }
        return String(trimmed.prefix { $0 != " " })
    }

    /// A desktop action id from a shortcut type: action ids allow only `A-Za-z0-9-`.
    private static func actionID(_ type: String) -> String {
        String(type.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "-" })
    }

    /// Action ids for `types`, in order and unique: a type whose id is taken (`a.b` after `a-b`)
    /// gets `-2`, `-3`, … appended.
    public static func actionIDs(_ types: [String]) -> [String] {
        var used = Set<String>()
        return types.map { type in
            let base = actionID(type)
            var id = base
            var suffix = 2
            while used.contains(id) {
                id = "\(base)-\(suffix)"
                suffix += 1
            }
            used.insert(id)
            return id
        }
    }

    /// Quotes an `Exec` argument when it holds reserved characters (desktop entry spec).
    static func quoteExecArgument(_ arg: String) -> String {
        let reserved = Set(" \t\n\"'\\><~|&;$*?#()`")
        guard arg.contains(where: { reserved.contains($0) }) || arg.isEmpty else {
            return arg.replacingOccurrences(of: "%", with: "%%")
        }
        var out = "\""
        for c in arg {
            if c == "\"" || c == "`" || c == "$" || c == "\\" { out += "\\\\" }
            out.append(c)
        }
        return (out + "\"").replacingOccurrences(of: "%", with: "%%")
    }

    /// Escapes a string value (`\n`, `\t`, `\\`).
    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\t", with: "\\t").replacingOccurrences(of: "\r", with: "\\r")
    }
}
