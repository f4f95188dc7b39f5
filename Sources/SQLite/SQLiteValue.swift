/// A value bound to a statement's parameter: SQLite's NULL, INTEGER or TEXT (the only types the
/// project stores).
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)
}

extension SQLiteValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(nilLiteral: ()) { self = .null }
}

extension SQLiteValue {
    /// Text, or NULL for nil.
    public init(_ value: String?) {
        self = value.map { .text($0) } ?? .null
    }

    /// An integer, or NULL for nil.
    public init(_ value: Int64?) {
        self = value.map { .integer($0) } ?? .null
    }

    /// An integer.
    public init(_ value: Int) {
        self = .integer(Int64(value))
    }
}
