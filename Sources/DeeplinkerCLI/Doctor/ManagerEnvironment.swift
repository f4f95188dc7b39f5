/// The systemd user manager's environment, the one launched apps and the focus watcher start with:
/// the `Environment` property of `org.freedesktop.systemd1.Manager` on the session bus, which
/// `systemctl --user show-environment` prints as `NAME=VALUE` lines (values with special
/// characters in `$'...'` quoting).
public struct ManagerEnvironment: Sendable, Hashable {
    public var variables: [String: String]

    public init(variables: [String: String]) { self.variables = variables }

    /// From `NAME=VALUE` entries (the property's strings).
    public init(entries: [String]) {
        var variables: [String: String] = [:]
        for entry in entries {
            guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else { continue }
            variables[String(entry[..<equals])] = Self.unquote(String(entry[entry.index(after: equals)...]))
        }
        self.variables = variables
    }

    /// From the text `systemctl --user show-environment` prints (one `NAME=VALUE` per line; blank
    /// lines and `#` comments skipped).
    public init(text: String) {
        self.init(entries: text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.hasPrefix("#") })
    }

    /// `show-environment` writes `$'...'` around values with spaces or control characters.
    static func unquote(_ value: String) -> String {
        guard value.hasPrefix("$'"), value.hasSuffix("'"), value.count >= 3 else { return value }
        var out = ""
        var escaped = false
        for character in value.dropFirst(2).dropLast() {
            if escaped {
                switch character {
                case "n": out.append("\n")
                case "t": out.append("\t")
                default: out.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// A variable that is set and not empty.
    public func value(_ name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }
}
