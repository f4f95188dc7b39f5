/// Why a text is not a valid TOML 1.0 document, and where (the first problem; parsing stops there).
public struct TOMLSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong. Key paths are rendered as TOML writes them (`targets."a.b".id`, `routes[1]`);
    /// `first` is where the conflicting earlier definition is.
    public enum Problem: Sendable, Hashable {
        /// Something other than what the grammar allows here, e.g. expected "'=' after the key",
        /// found "'x'" (`found` is already described: a quoted character, "a newline", "the end of the file", …).
        case unexpected(found: String, expected: String)
        /// A control character (other than tab) in a string or comment, named by its scalar value.
        case controlCharacter(UInt32, in: String)
        /// A backslash sequence basic strings do not have, as written (`\x`, `\u12`).
        case invalidEscape(String)
        /// `\uXXXX` or `\UXXXXXXXX` naming a surrogate or a value past U+10FFFF.
        case invalidUnicodeEscape(String)
        /// A string still open at the end of its line (single-line strings) or of the file.
        case unterminatedString(multiline: Bool)
        /// A bare word that is no value (`a = yes`): strings need quotes.
        case invalidValue(String)
        /// A malformed integer or float, as written, and the rule it breaks.
        case invalidNumber(String, reason: String)
        /// An integer outside −2^63 … 2^63−1, as written.
        case integerOutOfRange(String)
        /// A malformed or impossible date or time, as written, and why.
        case invalidDateTime(String, reason: String)
        /// A key given a value twice in the same table.
        case duplicateKey(String, first: TextLocation)
        /// A `[table]` header naming a table that a header already defined.
        case tableDefinedTwice(String, first: TextLocation)
        /// A `[table]` header naming a table that dotted keys already defined.
        case tableDefinedByDottedKeys(String, first: TextLocation)
        /// A dotted key reaching into a table that a `[table]` header, or dotted keys under an
        /// earlier header, defined.
        case tableDefinedElsewhere(String, first: TextLocation)
        /// A dotted key or header that needs a table where a value of another kind (`kind`) is.
        case notATable(String, kind: String, first: TextLocation)
        /// A key, dotted key or header adding to an inline table, which is complete when written.
        case inlineTableExtended(String, first: TextLocation)
        /// `[[name]]` where `name` is a static array (`name = [...]`), which cannot be appended to.
        case staticArrayExtended(String, first: TextLocation)
        /// `[name]` where `name` is an array of tables.
        case arrayOfTablesAsTable(String, first: TextLocation)
        /// `[[name]]` where `name` is a table.
        case tableAsArrayOfTables(String, first: TextLocation)
        /// An array (`"array"`) or inline table (`"inline table"`) still open at the end of the
        /// file, reported at its opening bracket, with the bracket that would close it.
        case unclosed(String, closer: String)
        /// `{ a = 1, }`
        case trailingCommaInInlineTable
        /// A newline between the braces of an inline table (outside a nested array).
        case newlineInInlineTable
        /// Tables and arrays nested deeper than `limit` levels.
        case tooDeep(limit: Int)
    }

    public var location: TextLocation
    public var problem: Problem

    public init(_ problem: Problem, at location: TextLocation) {
        self.problem = problem
        self.location = location
    }

    /// The problem in words, without the location.
    public var message: String {
        func at(_ l: TextLocation) -> String { "line \(l.line), column \(l.column)" }
        switch problem {
        case let .unexpected(found, expected):
            return "expected \(expected), found \(found)"
        case let .controlCharacter(value, context):
            return "\(context) cannot contain the control character \(Self.scalarName(value))"
                + (context.hasSuffix("basic string") ? " (write it as an escape such as \\u\(Self.hex(value, digits: 4)))" : "")
        case .invalidEscape(let text):
            return "invalid escape \(text) (basic strings have \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX and \\UXXXXXXXX)"
        case .invalidUnicodeEscape(let text):
            return "\(text) is not a Unicode scalar value"
        case .unterminatedString(let multiline):
            return multiline
                ? "unterminated multi-line string"
                : "unterminated string (a single-line string ends on its line; use \"\"\" or ''' for several lines)"
        case .invalidValue(let text):
            return "invalid value \(text) (strings need quotes)"
        case let .invalidNumber(text, reason):
            return "invalid number \(text): \(reason)"
        case .integerOutOfRange(let text):
            return "integer \(text) does not fit in 64 bits"
        case let .invalidDateTime(text, reason):
            return "invalid date-time \(text): \(reason)"
        case let .duplicateKey(path, first):
            return "key \(path) is defined twice (first at \(at(first)))"
        case let .tableDefinedTwice(path, first):
            return "table [\(path)] is defined twice (first at \(at(first)))"
        case let .tableDefinedByDottedKeys(path, first):
            return "table \(path) is already defined by dotted keys (at \(at(first))); a [\(path)] header cannot define it again"
        case let .tableDefinedElsewhere(path, first):
            return "table \(path) is defined at \(at(first)); dotted keys here cannot add to it"
        case let .notATable(path, kind, first):
            return "\(path) is \(kind) (at \(at(first))), not a table"
        case let .inlineTableExtended(path, first):
            return "\(path) is an inline table (at \(at(first))), which cannot be added to"
        case let .staticArrayExtended(path, first):
            return "\(path) is a static array (at \(at(first))); [[\(path)]] cannot append to it"
        case let .arrayOfTablesAsTable(path, first):
            return "\(path) is an array of tables (at \(at(first))); add an element with [[\(path)]]"
        case let .tableAsArrayOfTables(path, first):
            return "\(path) is a table (at \(at(first))), not an array of tables"
        case let .unclosed(what, closer):
            return "unclosed \(what): the file ends before its '\(closer)'"
        case .trailingCommaInInlineTable:
            return "an inline table cannot end with a comma"
        case .newlineInInlineTable:
            return "an inline table must be on one line (use a [table] header for several lines)"
        case .tooDeep(let limit):
            return "tables and arrays nest deeper than \(limit) levels"
        }
    }

    /// `line:column: message`
    public var description: String { "\(location.line):\(location.column): \(message)" }

    /// `U+0007`
    static func scalarName(_ value: UInt32) -> String { "U+" + hex(value, digits: 4) }

    static func hex(_ value: UInt32, digits: Int) -> String {
        let h = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - h.count)) + h
    }
}
