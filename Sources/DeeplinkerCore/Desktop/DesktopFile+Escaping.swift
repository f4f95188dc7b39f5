extension DesktopFile {
    /// Undoes the string escapes of the Desktop Entry Specification (`\s \n \t \r \\`); any other
    /// `\x` is kept as written (`\;` belongs to lists).
    public static func unescape(_ raw: String) -> String {
        guard raw.contains("\\") else { return raw }
        var out = ""
        var escaped = false
        for c in raw {
            if escaped {
                switch c {
                case "s": out.append(" ")
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "\\": out.append("\\")
                default: out.append("\\"); out.append(c)
                }
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        if escaped { out.append("\\") }
        return out
    }

    /// Escapes a string value for writing: `\\`, `\n`, `\t`, `\r`, and a leading space as `\s`
    /// (spaces after `=` would otherwise be dropped).
    public static func escape(_ value: String) -> String {
        var out = ""
        for (index, c) in value.enumerated() {
            switch c {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case " " where index == 0: out += "\\s"
            default: out.append(c)
            }
        }
        return out
    }

    /// A list value as written: each item escaped, `;` inside an item as `\;`, each item ended by `;`.
    public static func escapeList(_ items: [String]) -> String {
        items.map { escape($0).replacing(";", with: "\\;") + ";" }.joined()
    }
}
