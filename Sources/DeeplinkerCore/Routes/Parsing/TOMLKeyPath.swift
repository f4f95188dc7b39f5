/// A path to a key or value inside a TOML document, e.g. `routes[2].target` or `targets."messages.details".id`.
public struct TOMLKeyPath: Hashable, Sendable, CustomStringConvertible {
    /// One step: a table key or an array index.
    public enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }

    public func appending(_ key: String) -> TOMLKeyPath { TOMLKeyPath(components + [.key(key)]) }
    public func appending(_ index: Int) -> TOMLKeyPath { TOMLKeyPath(components + [.index(index)]) }

    /// The path without its last component.
    public var parent: TOMLKeyPath? { components.isEmpty ? nil : TOMLKeyPath(Array(components.dropLast())) }

    /// The last key name, if the path ends with a key.
    public var lastKey: String? {
        if case .key(let k) = components.last { return k }
        return nil
    }

    public var description: String {
        var out = ""
        for component in components {
            switch component {
            case .key(let key):
                let bare = !key.isEmpty && key.utf8.allSatisfy {
                    ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F
                }
                if !out.isEmpty { out += "." }
                out += bare ? key : "\"" + Self.escaped(key) + "\""
            case .index(let i):
                out += "[\(i)]"
            }
        }
        return out
    }

    /// A key escaped for a basic string: quotes, backslashes and control characters (so a
    /// message quoting the path stays on one line and holds no NUL).
    static func escaped(_ key: String) -> String {
        var s = ""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": s += "\\\""
            case "\\": s += "\\\\"
            case "\n": s += "\\n"
            case "\t": s += "\\t"
            case "\r": s += "\\r"
            case "\u{8}": s += "\\b"
            case "\u{C}": s += "\\f"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                s += "\\u" + TOMLSyntaxError.hex(scalar.value, digits: 4)
            default: s.unicodeScalars.append(scalar)
            }
        }
        return s
    }
}
