/// A TOML 1.0 parser over the UTF-8 bytes of a text, standard library
/// only. It builds the document with the location of every key and value, and stops at the first
/// problem with a `TOMLSyntaxError` naming its line and column. Nesting is limited (`maxDepth`) so
/// hostile input cannot exhaust the stack; it never traps on any input.
///
/// Columns count Unicode scalars from 1 (a tab or a carriage return is one column); a UTF-8
/// byte-order mark at the start is skipped and not counted.
struct TOMLParser {
    /// How deep tables and arrays may nest (a table inside a table is one level, an element of an
    /// array one more). Route files need 4; toml++ allowed 256.
    static let maxDepth = 64

    let bytes: [UInt8]
    /// The read position.
    var i: Int
    /// Where the text starts (after a byte-order mark).
    let start: Int
    /// A known position and its line and column; `location(_:)` counts on from it, so the
    /// locations of a whole parse cost one pass over the text.
    private var cursor: (index: Int, line: Int, column: Int)
    let root: TOMLTableBuilder
    /// The table that key/value lines go into: the root, or the last header's table.
    var current: TOMLTableBuilder
    /// The number of the current table section (0 before the first header): dotted keys may only
    /// add to tables that dotted keys of the same section made.
    var section = 0
    /// Table sections and inline tables so far; each gets its own number.
    var sectionCount = 0

    init(text: String) {
        bytes = Array(text.utf8)
        start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        i = start
        cursor = (start, 1, 1)
        root = TOMLTableBuilder(origin: .root, location: TextLocation(line: 1, column: 1), path: TOMLKeyPath(), depth: 0)
        current = root
    }

    /// Parses a whole document.
    static func parse(_ text: String) throws(TOMLSyntaxError) -> TOMLTable {
        var parser = TOMLParser(text: text)
        try parser.parseDocument()
        return parser.root.build()
    }

    /// `toml = expression *( newline expression )`, an expression being blank, a comment, a
    /// key/value pair or a table header, each optionally followed by a comment.
    mutating func parseDocument() throws(TOMLSyntaxError) {
        while true {
            skipWhitespace()
            guard i < bytes.count else { return }
            let what: String
            switch bytes[i] {
            case UInt8(ascii: "#"), 0x0A, 0x0D:
                what = "a comment"
            case UInt8(ascii: "["):
                try parseHeader()
                what = "the table header"
            default:
                try parseKeyValue(into: current, section: section, inline: false)
                what = "the value"
            }
            skipWhitespace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "#") { try skipComment() }
            guard i < bytes.count else { return }
            guard skipNewline() else {
                throw unexpected(what == "a comment" ? "a newline" : "a newline or a comment after \(what)")
            }
        }
    }

    // MARK: - Positions and messages

    /// The line and column of byte `index`.
    mutating func location(_ index: Int) -> TextLocation {
        if index < cursor.index { cursor = (start, 1, 1) }
        var (k, line, column) = cursor
        let end = min(index, bytes.count)
        while k < end {
            let b = bytes[k]
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
            k += 1
        }
        cursor = (k, line, column)
        return TextLocation(line: line, column: column)
    }

    /// `problem` at byte `index` (default: the read position).
    mutating func error(_ problem: TOMLSyntaxError.Problem, at index: Int? = nil) -> TOMLSyntaxError {
        TOMLSyntaxError(problem, at: location(index ?? i))
    }

    /// "expected `expected`, found …" at the read position.
    mutating func unexpected(_ expected: String) -> TOMLSyntaxError {
        error(.unexpected(found: describe(i), expected: expected))
    }

    /// The scalar starting at byte `index` (U+FFFD if the bytes are not UTF-8, which a `String`'s are).
    func scalar(at index: Int) -> Unicode.Scalar {
        var iterator = bytes[index...].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return "\u{FFFD}"
    }

    /// What is at byte `index`, for "found …": a quoted character, or a name for what does not print.
    func describe(_ index: Int) -> String {
        guard index < bytes.count else { return "the end of the file" }
        if isNewline(at: index) { return "a newline" }
        let scalar = scalar(at: index)
        let name = TOMLSyntaxError.scalarName(scalar.value)
        switch scalar.value {
        case 0x0D: return "a carriage return (\(name)) without a newline"
        case 0x0B, 0x0C, 0x85, 0xA0, 0x1680, 0x180E, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF:
            return "the whitespace character \(name) (TOML allows only spaces and tabs)"
        case 0..<0x20, 0x7F...0x9F: return "the control character \(name)"
        default: return "'\(Character(scalar))'"
        }
    }

    // MARK: - Blanks

    /// A line feed, or a carriage return and a line feed, at `index`.
    func isNewline(at index: Int) -> Bool {
        guard index < bytes.count else { return false }
        return bytes[index] == 0x0A || (bytes[index] == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A)
    }

    /// Skips spaces and tabs, TOML's only whitespace.
    mutating func skipWhitespace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
    }

    /// Skips one newline (LF or CRLF) if there is one.
    mutating func skipNewline() -> Bool {
        guard isNewline(at: i) else { return false }
        i += bytes[i] == 0x0D ? 2 : 1
        return true
    }

    /// Skips a comment from its `#` to the end of the line (not the newline itself).
    mutating func skipComment() throws(TOMLSyntaxError) {
        i += 1
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A || isNewline(at: i) { return }
            if (b < 0x20 && b != 0x09) || b == 0x7F { throw error(.controlCharacter(UInt32(b), in: "a comment")) }
            i += 1
        }
    }

    /// Skips whitespace, newlines and comments (between the values of an array).
    mutating func skipBlankLinesAndComments() throws(TOMLSyntaxError) {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09: i += 1
            case UInt8(ascii: "#"): try skipComment()
            default: guard skipNewline() else { return }
            }
        }
    }
}
