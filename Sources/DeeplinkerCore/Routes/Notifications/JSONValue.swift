/// A parsed JSON value. Numbers keep their literal text, so payload numbers reach parameters as
/// written (`7` stays `7`); objects keep the first of duplicate keys.
public indirect enum JSONValue: Sendable, Hashable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    /// Strings as they are, numbers as written, booleans as `true`/`false`; nil for other values.
    public var scalarText: String? {
        switch self {
        case .string(let s): s
        case .number(let n): n
        case .bool(let b): b ? "true" : "false"
        case .object, .array, .null: nil
        }
    }

    /// The value at a dotted path (`data.messageId`) through nested objects; nil if absent.
    public func value(at path: String) -> JSONValue? {
        var current = self
        for key in path.split(separator: ".", omittingEmptySubsequences: false) {
            guard case .object(let members) = current, let next = members[String(key)] else { return nil }
            current = next
        }
        return current
    }

    /// Every scalar below this value with its dotted name (`data.messageId`); arrays and nulls are skipped.
    public func flattenedScalars(prefix: String = "") -> [QueryItem] {
        switch self {
        case .object(let members):
            var out: [QueryItem] = []
            for key in members.keys.sorted() {
                out += members[key]!.flattenedScalars(prefix: prefix.isEmpty ? key : prefix + "." + key)
            }
            return out
        case .array, .null:
            return []
        default:
            return prefix.isEmpty ? [] : [QueryItem(name: prefix, value: scalarText ?? "")]
        }
    }
}
