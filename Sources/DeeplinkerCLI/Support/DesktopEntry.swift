import DeeplinkerCore

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
            lines.append("MimeType=" + config.schemes.map { "x-scheme-handler/\($0);" }.joined())
        }
        if !published.isEmpty {
            lines.append("Actions=" + published.map { actionID($0.type) + ";" }.joined())
        }
        for shortcut in published {
            lines.append("")
            lines.append("[Desktop Action \(actionID(shortcut.type))]")
            lines.append("Name=\(escape(shortcut.title))")
            if let icon = shortcut.icon, !icon.isEmpty { lines.append("Icon=\(escape(icon))") }
            lines.append("Exec=\(exec) shortcut \(config.appID) \(quoteExecArgument(shortcut.type))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A desktop action id from a shortcut type: action ids allow only `A-Za-z0-9-`.
    public static func actionID(_ type: String) -> String {
        String(type.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "-" })
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
