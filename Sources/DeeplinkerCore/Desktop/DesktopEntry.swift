/// The desktop entries `deeplinker install-desktop` writes (SPEC §8), all `desktop-file-validate`
/// clean and naming `deeplinker` by the path given (absolute when installed):
/// - the hidden scheme handler `<app-id>.deeplinker.desktop` (`open --app ID %u`);
/// - the app's own entry: an override of its installed entry that keeps every group, key,
///   translation and comment and changes only `Exec` (`launch ID`), `DBusActivatable`, `Actions`
///   and `X-Deeplinker-Source`; or, with no installed entry, a minimal entry marked as ours.
public enum DesktopEntry {
    /// The handler entry's file name for `appID`.
    public static func handlerFileName(appID: String) -> String { appID + ".deeplinker.desktop" }

    /// The app entry's file name for `appID` (its desktop-file id).
    public static func entryFileName(appID: String) -> String { appID + ".desktop" }

    /// The hidden handler entry, or nil when the app has no schemes to claim.
    public static func handler(config: AppConfig, executable: String) -> DesktopFile? {
        guard !config.schemes.isEmpty else { return nil }
        let name = config.name ?? config.appID
        var file = DesktopFile()
        file.setValue("Application", for: "Type")
        file.setValue("1.4", for: "Version")
        file.setValue("\(name) links", for: "Name")
        file.setValue("Opens \(name) links through Deeplinker", for: "Comment")
        file.setRawValue("\(quoteExecArgument(executable)) open --app \(config.appID) %u", for: "Exec")
        file.setValue("true", for: "NoDisplay")
        file.setValue("false", for: "Terminal")
        file.setList(handlerSchemes(config).map { "x-scheme-handler/" + $0 }, for: "MimeType")
        file.setValue("true", for: DesktopEntryLocator.generatedKey)
        return file
    }

    /// What `install-desktop` writes for the app's own entry: the override of `installed`, or the
    /// minimal entry when there is none. `shortcuts` nil = every configured shortcut.
    public static func appEntry(
        config: AppConfig, installed: LocatedDesktopEntry?, shortcuts: [String]? = nil, executable: String
    ) -> DesktopFile {
        if let installed { return override(of: installed, config: config, shortcuts: shortcuts, executable: executable) }
        return minimal(config: config, shortcuts: shortcuts, executable: executable)
    }

    /// The installed entry with only `Exec`, `DBusActivatable`, `Actions` (and the app's own action
    /// groups) and `X-Deeplinker-Source` changed.
    public static func override(
        of installed: LocatedDesktopEntry, config: AppConfig, shortcuts: [String]? = nil, executable: String
    ) -> DesktopFile {
        var file = installed.file
        let exec = quoteExecArgument(executable)
        file.setRawValue("\(exec) launch \(config.appID)", for: "Exec")
        file.removeKey("DBusActivatable")
        file.setValue(installed.path, for: DesktopEntryLocator.sourceKey)
        return withActions(file, config: config, published: published(config, shortcuts), exec: exec)
    }

    /// A minimal entry of our own, for an app with no installed entry.
    public static func minimal(config: AppConfig, shortcuts: [String]? = nil, executable: String) -> DesktopFile {
        let name = config.name ?? config.appID
        let exec = quoteExecArgument(executable)
        var file = DesktopFile()
        file.setValue("Application", for: "Type")
        file.setValue("1.4", for: "Version")
        file.setValue(name, for: "Name")
        file.setValue("Opens \(name) through Deeplinker", for: "Comment")
        file.setRawValue("\(exec) launch \(config.appID)", for: "Exec")
        file.setValue(config.appID, for: "Icon")
        file.setValue("false", for: "Terminal")
        file.setValue("true", for: DesktopEntryLocator.generatedKey)
        return withActions(file, config: config, published: published(config, shortcuts), exec: exec)
    }

    /// The minimal entry's text (kept for callers of the first version).
    public static func render(config: AppConfig, shortcuts: [String]? = nil, executable: String = "deeplinker") -> String {
        minimal(config: config, shortcuts: shortcuts, executable: executable).rendered()
    }

    /// A written entry with its actions replaced by the published shortcut `types` (SPEC §8:
    /// `SetShortcuts` rewrites the written entry's actions). Everything else is kept; the actions'
    /// `Exec` uses the program of the main group's `Exec`.
    public static func replacingActions(in file: DesktopFile, config: AppConfig, shortcuts types: [String]) -> DesktopFile {
        let exec = file.group(DesktopFile.mainGroup)?.rawValue("Exec").flatMap(firstExecArgument) ?? "deeplinker"
        return withActions(file, config: config, published: published(config, types), exec: exec)
    }

    /// The program a written entry's `Exec` runs, unquoted (`/opt/my tools/deeplinker`).
    public static func executable(of file: DesktopFile) -> String? {
        file.value("Exec").flatMap { execArguments($0)?.first }
    }

    /// The shortcut types a written entry lists as actions, in order: the last argument of each
    /// action's `Exec` (`deeplinker shortcut ID TYPE`).
    public static func shortcutTypes(in file: DesktopFile) -> [String] {
        (file.list("Actions") ?? []).compactMap { id in
            file.value("Exec", in: "Desktop Action \(id)").flatMap { execArguments($0)?.last }
        }
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

    /// The configured shortcuts whose types are in `types` (nil = all), in route-file order.
    private static func published(_ config: AppConfig, _ types: [String]?) -> [ShortcutConfig] {
        types.map { types in config.shortcuts.filter { types.contains($0.type) } } ?? config.shortcuts
    }

    /// `file` with `Actions` (in its place) and every `[Desktop Action …]` group replaced by one per shortcut.
    private static func withActions(_ file: DesktopFile, config: AppConfig, published: [ShortcutConfig], exec: String) -> DesktopFile {
        var file = file
        let old = Set((file.list("Actions") ?? []).map { "Desktop Action " + $0 })
        file.removeGroups { $0.hasPrefix("Desktop Action ") || old.contains($0) }
        let ids = actionIDs(published.map(\.type))
        guard !published.isEmpty else {
            file.removeKey("Actions")
            return file
        }
        file.setList(ids, for: "Actions")
        for (shortcut, id) in zip(published, ids) {
            var entries: [(key: String, value: String)] = [(key: "Name", value: shortcut.title)]
            if let icon = shortcut.icon, !icon.isEmpty { entries.append((key: "Icon", value: icon)) }
            var lines = entries.map { DesktopFileLine.entry($0.key, rawValue: DesktopFile.escape($0.value)) }
            lines.append(.entry("Exec", rawValue: "\(exec) shortcut \(config.appID) \(quoteExecArgument(shortcut.type))"))
            file.appendGroup("Desktop Action \(id)", lines: lines)
        }
        return file
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

    /// The arguments of an (unescaped) `Exec` value, quotes removed (`"a b" c` → `a b`, `c`);
    /// nil when a quote is not closed.
    static func execArguments(_ exec: String) -> [String]? {
        var out: [String] = []
        var current: String?
        var quoted = false
        var escaped = false
        for c in exec {
            if escaped {
                current = (current ?? "") + String(c)
                escaped = false
            } else if quoted {
                if c == "\\" { escaped = true } else if c == "\"" { quoted = false } else { current = (current ?? "") + String(c) }
            } else if c == "\"" {
                quoted = true
                current = current ?? ""
            } else if c == " " {
                if let arg = current { out.append(arg) }
                current = nil
            } else {
                current = (current ?? "") + String(c)
            }
        }
        guard !quoted, !escaped else { return nil }
        if let arg = current { out.append(arg) }
        return out.map { $0.replacing("%%", with: "%") }
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

    /// Quotes an `Exec` argument when it holds reserved characters (desktop entry spec); the
    /// result is written as is (already string-escaped).
    public static func quoteExecArgument(_ arg: String) -> String {
        let reserved = Set(" \t\n\"'\\><~|&;$*?#()`")
        guard arg.contains(where: { reserved.contains($0) }) || arg.isEmpty else {
            return arg.replacing("%", with: "%%")
        }
        var out = "\""
        for c in arg {
            // Inside quotes `"`, `` ` ``, `$` and `\` take a backslash, which the string escape doubles.
            if c == "\\" {
                out += "\\\\\\\\"
                continue
            }
            if c == "\"" || c == "`" || c == "$" { out += "\\\\" }
            out.append(c)
        }
        return (out + "\"").replacing("%", with: "%%")
    }
}
