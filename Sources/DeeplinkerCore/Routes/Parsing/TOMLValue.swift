/// One value of a TOML document (TOML 1.0) and where it starts in the text, so that a problem with
/// it can be reported at its line and column.
public struct TOMLValue: Sendable, Hashable {
    /// The value itself. Date-times are kept as the validated text they were written as: route
    /// files have no date-time keys, so no calendar type is needed.
    public enum Kind: Sendable, Hashable {
        case string(String)
        case integer(Int64)
        case float(Double)
        case boolean(Bool)
        /// `1979-05-27T07:32:00Z`, `1979-05-27 07:32:00.5-07:00`
        case offsetDateTime(String)
        /// `1979-05-27T07:32:00`
        case localDateTime(String)
        /// `1979-05-27`
        case localDate(String)
        /// `07:32:00.999`
        case localTime(String)
        /// A static array (`[1, 2]`) or an array of tables (`[[name]]` headers).
        case array([TOMLValue])
        /// An inline table, a table made by a `[header]`, or one made implicitly by a dotted key or header.
        case table(TOMLTable)
    }

    public var kind: Kind
    /// Where the value starts: its first character, or for a table made by a header the header's
    /// `[`, and for a table made implicitly by a dotted key or header the key naming it.
    public var location: TextLocation

    public init(_ kind: Kind, at location: TextLocation) {
        self.kind = kind
        self.location = location
    }

    public var string: String? {
        if case .string(let s) = kind { return s }
        return nil
    }

    public var integer: Int64? {
        if case .integer(let n) = kind { return n }
        return nil
    }

    public var float: Double? {
        if case .float(let d) = kind { return d }
        return nil
    }

    public var boolean: Bool? {
        if case .boolean(let b) = kind { return b }
        return nil
    }

    public var array: [TOMLValue]? {
        if case .array(let a) = kind { return a }
        return nil
    }

    public var table: TOMLTable? {
        if case .table(let t) = kind { return t }
        return nil
    }

    /// The kind with an article, for messages ("a string", "an integer"); an inline table is
    /// "a table" like any other.
    public var kindName: String {
        switch kind {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a float"
        case .boolean: "a boolean"
        case .offsetDateTime: "an offset date-time"
        case .localDateTime: "a local date-time"
        case .localDate: "a local date"
        case .localTime: "a local time"
        case .array: "an array"
        case .table: "a table"
        }
    }
}
