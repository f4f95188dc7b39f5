/// Maps key paths of a TOML document to where their key and value are written. TOMLKit reports
/// positions only for syntax errors, so this lightweight scanner re-reads the (already valid) text:
/// it follows `[table]` and `[[array-of-tables]]` headers, dotted and quoted keys, inline tables and
/// arrays, skipping strings and comments. On malformed text it stops early; it never traps.
public struct TOMLSourceLocator: Sendable {
    private var keys: [TOMLKeyPath: TextLocation] = [:]
    private var values: [TOMLKeyPath: TextLocation] = [:]
    /// Invalid TOML on which TOMLKit's toml++ aborts the process on an assertion instead of reporting
    /// an error (found by fuzzing): a `[table]` header not starting with a key (`[{`, `[` at the end of
    /// a line), or an array value starting with `}` (`a = [}`). The parser refuses such text before
    /// handing it over.
    public struct SyntaxProblem: Sendable, Hashable {
        public var location: TextLocation
        public var message: String
    }

    /// The first `SyntaxProblem` (scanning stops there).
    public private(set) var syntaxProblem: SyntaxProblem?

    public init(text: String) {
        var scanner = Scanner(bytes: Array(text.utf8), recording: true)
        scanner.scanDocument()
        keys = scanner.keys
        values = scanner.values
        syntaxProblem = scanner.problem
    }

    /// Only the check for a `SyntaxProblem`, without recording locations (cheaper).
    public static func syntaxProblem(in text: String) -> SyntaxProblem? {
        var scanner = Scanner(bytes: Array(text.utf8), recording: false)
        scanner.scanDocument()
        return scanner.problem
    }

    /// Where the key (or table header) of `path` is written.
    public func keyLocation(_ path: TOMLKeyPath) -> TextLocation? { keys[path] }

    /// Where the value of `path` starts.
    public func valueLocation(_ path: TOMLKeyPath) -> TextLocation? { values[path] }

    /// The best location for a message about `path`: its value or key, else the nearest ancestor's, else 1:1.
    public func location(_ path: TOMLKeyPath, preferValue: Bool = true) -> TextLocation {
        var current: TOMLKeyPath? = path
        while let p = current {
            let found = preferValue ? (values[p] ?? keys[p]) : (keys[p] ?? values[p])
            if let found { return found }
            current = p.parent
        }
        return TextLocation(line: 1, column: 1)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var i = 0
        var line = 1
        var column = 1
        var keys: [TOMLKeyPath: TextLocation] = [:]
        var values: [TOMLKeyPath: TextLocation] = [:]
        var arrayCounts: [TOMLKeyPath: Int] = [:]
        var problem: SyntaxProblem?
        let recording: Bool

        init(bytes: [UInt8], recording: Bool) {
            self.bytes = bytes
            self.recording = recording
            // toml++ skips a UTF-8 byte order mark; so must we, or the first line is misread.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        }

        mutating func setKey(_ path: TOMLKeyPath, _ location: TextLocation, overwrite: Bool = true) {
            guard recording, overwrite || keys[path] == nil else { return }
            keys[path] = location
        }

        /// What may follow `[` or `[[` (and spaces): the start of a bare or quoted key. Anything else
        /// is invalid TOML, and some of it (`[{`, `[[[`) trips toml++'s assertions.
        static func isHeaderStart(_ c: UInt8) -> Bool {
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F
                || c == 0x22 || c == 0x27
        }

        var atEnd: Bool { i >= bytes.count }
        var here: TextLocation { TextLocation(line: line, column: column) }
        func peek(_ offset: Int = 0) -> UInt8? { i + offset < bytes.count ? bytes[i + offset] : nil }

        mutating func advance() {
            guard i < bytes.count else { return }
            let b = bytes[i]
            i += 1
            if b == 0x0A {
                line += 1
                column = 1
            } else if b & 0xC0 != 0x80 {
                column += 1
            }
        }

        mutating func skipSpaces() { while let b = peek(), b == 0x20 || b == 0x09 { advance() } }

        mutating func skipComment() {
            guard peek() == 0x23 else { return }
            while let b = peek(), b != 0x0A { _ = b; advance() }
        }

        /// Skips spaces, newlines and comments.
        /// `YYYY-MM-DD HH:MM…` with no other blank: the one place TOML allows a space in a bare value.
        static func isDateSpaceTime(_ v: [UInt8]) -> Bool {
            func digit(_ k: Int) -> Bool { k < v.count && v[k] >= 0x30 && v[k] <= 0x39 }
            guard v.count >= 16, (0..<4).allSatisfy(digit), v[4] == 0x2D, digit(5), digit(6), v[7] == 0x2D, digit(8), digit(9),
                v[10] == 0x20, digit(11), digit(12), v[13] == 0x3A, digit(14), digit(15)
            else { return false }
            return !v[11...].contains { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        }

        /// The character at the cursor if it is whitespace that TOML does not allow between tokens
        /// (vertical tab, form feed, or a non-ASCII space or line separator). toml++ treats these as
        /// value terminators and aborts on an assertion when one starts an array value (fuzzing,
        /// `4=[` followed by U+0085).
        func whitespaceScalarTOMLRejects() -> Unicode.Scalar? {
            var iterator = bytes[i...].makeIterator()
            var decoder = UTF8()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return nil }
            switch scalar.value {
            case 0x0B, 0x0C, 0x85, 0xA0, 0x1680, 0x180E, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF:
                return scalar
            default:
                return nil
            }
        }

        /// Records `message` at `location` as the document's syntax problem and ends the scan.
        mutating func stop(_ message: String, at location: TextLocation) {
            problem = SyntaxProblem(location: location, message: message)
            i = bytes.count
        }

        mutating func skipBlank() {
            while let b = peek() {
                if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                    advance()
                } else if b == 0x23 {
                    skipComment()
                } else {
                    return
                }
            }
        }

        mutating func skipLine() { while let b = peek(), b != 0x0A { _ = b; advance() } }

        mutating func scanDocument() {
            var current = TOMLKeyPath()
            // toml++ skips a UTF-8 byte-order mark; so must we, or a header right after it goes unchecked.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
            while problem == nil {
                skipBlank()
                guard let b = peek() else { return }
                let start = i
                if b == 0x5B {
                    let isArray = peek(1) == 0x5B
                    let location = here
                    advance()
                    if isArray { advance() }
                    skipSpaces()
                    guard let first = peek(), Self.isHeaderStart(first) else {
                        problem = SyntaxProblem(location: here, message: "a table header must start with a key name")
                        return
                    }
                    let parts = scanDottedKey()
                    guard !parts.isEmpty else { skipLine(); continue }
                    var resolved = TOMLKeyPath()
                    for (n, part) in parts.enumerated() {
                        resolved = resolved.appending(part.key)
                        if n == parts.count - 1, isArray {
                            let count = arrayCounts[resolved, default: 0]
                            arrayCounts[resolved] = count + 1
                            setKey(resolved, location, overwrite: false)
                            resolved = resolved.appending(count)
                        } else if let count = arrayCounts[resolved] {
                            resolved = resolved.appending(count - 1)
                        } else {
                            setKey(resolved, part.location, overwrite: false)
                        }
                    }
                    setKey(resolved, location)
                    current = resolved
                    skipLine()
                } else {
                    scanKeyValue(prefix: current)
                    skipSpaces()
                    skipComment()
                    if i == start { skipLine() }
                }
                if i == start { advance() }
            }
        }

        /// `a.b."c.d"` → keys with the location of each part.
        mutating func scanDottedKey() -> [(key: String, location: TextLocation)] {
            var parts: [(key: String, location: TextLocation)] = []
            while true {
                skipSpaces()
                let location = here
                guard let b = peek() else { return parts }
                if b == 0x22 || b == 0x27 {
                    guard let key = scanSingleLineString() else { return parts }
                    parts.append((key, location))
                } else {
                    let start = i
                    while let c = peek(), isBareKeyByte(c) { advance() }
                    guard i > start else { return parts }
                    parts.append((String(decoding: bytes[start..<i], as: UTF8.self), location))
                }
                skipSpaces()
                guard peek() == 0x2E else { return parts }
                advance()
            }
        }

        func isBareKeyByte(_ c: UInt8) -> Bool {
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F
        }

        /// Deeper nesting than toml++ accepts (256) is not followed, so hostile text cannot exhaust the stack.
        static let maxDepth = 300

        mutating func scanKeyValue(prefix: TOMLKeyPath, depth: Int = 0) {
            let parts = scanDottedKey()
            guard !parts.isEmpty else { return }
            var path = prefix
            for part in parts {
                path = path.appending(part.key)
                setKey(path, part.location, overwrite: false)
            }
            setKey(path, parts[parts.count - 1].location)
            skipSpaces()
            guard peek() == 0x3D else { return }
            advance()
            skipSpaces()
            scanValue(at: path, depth: depth + 1)
        }

        mutating func scanValue(at path: TOMLKeyPath, depth: Int) {
            if recording { values[path] = here }
            guard depth <= Self.maxDepth else {
                i = bytes.count
                return
            }
            guard let b = peek() else { return }
            if let scalar = whitespaceScalarTOMLRejects() {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                let name = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                stop("expected a value, found the whitespace character \(name)", at: here)
                return
            }
            switch b {
            case 0x22, 0x27:
                if peek(1) == b, peek(2) == b {
                    scanMultilineString(quote: b)
                } else {
                    _ = scanSingleLineString()
                }
            case 0x7B:
                advance()
                while true {
                    skipBlank()
                    guard let c = peek() else { return }
                    if c == 0x7D { advance(); return }
                    let before = i
                    scanKeyValue(prefix: path, depth: depth)
                    skipBlank()
                    if peek() == 0x2C { advance() }
                    if i == before { return }
                }
            case 0x5B:
                advance()
                var index = 0
                while true {
                    skipBlank()
                    guard let c = peek() else { return }
                    if c == 0x5D { advance(); return }
                    if c == 0x7D {
                        stop("expected a value or ']' in the array, found '}'", at: here)
                        return
                    }
                    let before = i
                    scanValue(at: path.appending(index), depth: depth + 1)
                    index += 1
                    skipBlank()
                    if peek() == 0x2C { advance() }
                    if i == before { return }
                }
            default:
                // A bare value (number, boolean, date-time) is ASCII letters, digits and `_+-.:`, with
                // spaces or tabs only inside a date-time or before what ends it. Anything else is
                // invalid TOML, on which toml++ may abort (fuzzing: `d=2324-` then DEL, U+FFFD).
                let start = i
                let startLocation = here
                while let c = peek(), c != 0x2C, c != 0x5D, c != 0x7D, c != 0x23, c != 0x0A {
                    let allowed = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                        || c == 0x5F || c == 0x2B || c == 0x2D || c == 0x2E || c == 0x3A || c == 0x20 || c == 0x09 || c == 0x0D
                    guard allowed else {
                        stop("unexpected character in a value", at: here)
                        return
                    }
                    advance()
                }
                // Inner blanks are allowed only as the space between a date and a time; toml++ aborts
                // on some other shapes (fuzzing: `o=9276-04-09 2`).
                var value = bytes[start..<i]
                while let last = value.last, last == 0x20 || last == 0x09 || last == 0x0D { value = value.dropLast() }
                if value.contains(where: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }), !Self.isDateSpaceTime(Array(value)) {
                    stop("a value may hold a space only between a date and a time", at: startLocation)
                }
            }
        }

        /// Reads a one-line basic or literal string and returns its (unescaped) content.
        mutating func scanSingleLineString() -> String? {
            guard let quote = peek() else { return nil }
            advance()
            var out: [UInt8] = []
            while let c = peek() {
                if c == 0x0A { return nil }
                advance()
                if c == quote { return String(decoding: out, as: UTF8.self) }
                if c == 0x5C, quote == 0x22, let e = peek() {
                    advance()
                    switch e {
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "u"), UInt8(ascii: "U"):
                        let count = e == UInt8(ascii: "u") ? 4 : 8
                        var value: UInt32 = 0
                        for _ in 0..<count {
                            guard let h = peek(), let d = PercentEncoding.hexValue(h) else { break }
                            value = value << 4 | UInt32(d)
                            advance()
                        }
                        if let scalar = Unicode.Scalar(value) { out += Array(String(Character(scalar)).utf8) }
                    default: out.append(e)
                    }
                } else {
                    out.append(c)
                }
            }
            return nil
        }

        mutating func scanMultilineString(quote: UInt8) {
            advance(); advance(); advance()
            while let c = peek() {
                if c == 0x5C, quote == 0x22 {
                    advance()
                    advance()
                    continue
                }
                if c == quote, peek(1) == quote, peek(2) == quote {
                    advance(); advance(); advance()
                    // Up to two more quotes belong to the content.
                    if peek() == quote { advance() }
                    if peek() == quote { advance() }
                    return
                }
                advance()
            }
        }
    }
}
