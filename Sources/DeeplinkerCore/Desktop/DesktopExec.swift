/// The `Exec` key of a desktop entry turned into an argv (Desktop Entry Specification, "The Exec
/// key"): quoting undone, field codes expanded for one launch. Pure; takes the string value after
/// the general `\s \n \t \r \\` unescaping.
public enum DesktopExec {
    /// What the field codes expand to for one launch.
    public struct Context: Sendable, Hashable {
        /// `%u`/`%U`/`%f`/`%F`: the invocation's URL, or nil (the code is then dropped).
        public var url: String?
        /// `%i`: the entry's `Icon` (expands to `--icon ICON`, or nothing).
        public var icon: String?
        /// `%c`: the entry's `Name`.
        public var name: String?
        /// `%k`: the entry's path.
        public var entryPath: String?

        public init(url: String? = nil, icon: String? = nil, name: String? = nil, entryPath: String? = nil) {
            self.url = url
            self.icon = icon
            self.name = name
            self.entryPath = entryPath
        }
    }

    /// A malformed `Exec` value: an unterminated quote or a bad escape, at a character offset.
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        public var column: Int
        public var reason: String
        public var description: String { "Exec column \(column): \(reason)" }
    }

    /// One argument before expansion: its text, and whether it was quoted (field codes are expanded
    /// only outside quotes, as the specification requires).
    struct Token: Hashable {
        var text: String
        var quoted: Bool
    }

    /// The argv for `exec` with the field codes of `context` expanded; empty when `exec` is blank.
    public static func argv(_ exec: String, context: Context) throws(SyntaxError) -> [String] {
        var out: [String] = []
        for token in try tokens(exec) {
            if token.quoted {
                out.append(token.text)
            } else {
                out += expand(token.text, context: context)
            }
        }
        return out
    }

    /// Splits on unquoted spaces; inside double quotes `\"`, `` \` ``, `\$` and `\\` are escapes.
    static func tokens(_ exec: String) throws(SyntaxError) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        var inToken = false
        var quoted = false
        var inQuotes = false
        var escaped = false
        var quoteColumn = 0
        for (column, c) in exec.enumerated() {
            if inQuotes {
                if escaped {
                    guard c == "\"" || c == "`" || c == "$" || c == "\\" else {
                        throw SyntaxError(column: column + 1, reason: "invalid escape \\\(c) inside quotes")
                    }
                    current.append(c)
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == "\"" {
                    inQuotes = false
                } else {
                    current.append(c)
                }
                continue
            }
            switch c {
            case " ", "\t":
                if inToken { tokens.append(Token(text: current, quoted: quoted)) }
                current = ""
                inToken = false
                quoted = false
            case "\"":
                quoteColumn = column + 1
                inQuotes = true
                inToken = true
                quoted = true
            default:
                current.append(c)
                inToken = true
            }
        }
        guard !inQuotes else { throw SyntaxError(column: quoteColumn, reason: "unterminated quote") }
        if inToken { tokens.append(Token(text: current, quoted: quoted)) }
        return tokens
    }

    /// Expands the field codes of one unquoted argument: a lone `%u` with no URL or `%i` with no icon
    /// yields no argument; deprecated codes (`%d %D %n %N %v %m`) are dropped; `%%` is `%`.
    static func expand(_ argument: String, context: Context) -> [String] {
        switch argument {
        case "%u", "%U", "%f", "%F": return context.url.map { [$0] } ?? []
        case "%i": return context.icon.map { ["--icon", $0] } ?? []
        default: break
        }
        var out = ""
        var iterator = argument.makeIterator()
        while let c = iterator.next() {
            guard c == "%" else {
                out.append(c)
                continue
            }
            switch iterator.next() {
            case "%": out.append("%")
            case "u", "U", "f", "F": out += context.url ?? ""
            case "c": out += context.name ?? ""
            case "k": out += context.entryPath ?? ""
            case "i": out += context.icon ?? ""
            case let other?:
                // Deprecated (%d %D %n %N %v %m) and unknown codes are removed.
                _ = other
            case nil: break
            }
        }
        return out.isEmpty && argument.contains("%") ? [] : [out]
    }
}
