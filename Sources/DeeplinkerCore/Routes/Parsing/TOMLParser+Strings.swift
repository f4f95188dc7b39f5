/// The four kinds of strings: basic (`"…"`, with escapes), literal (`'…'`), and their multi-line
/// forms (`"""…"""`, `'''…'''`). Control characters other than tab must be escaped in basic
/// strings and cannot be in literal ones; a carriage return counts as a newline only before a line feed.
extension TOMLParser {
    static func isControl(_ b: UInt8) -> Bool { (b < 0x20 && b != 0x09) || b == 0x7F }

    /// A basic string at the read position (its opening quote), up to its closing quote on the same line.
    mutating func parseBasicString() throws(TOMLSyntaxError) -> String {
        let open = i
        i += 1
        var runStart = i
        var out: [UInt8] = []
        var escaped = false
        while true {
            guard i < bytes.count, !isNewline(at: i) else { throw error(.unterminatedString(multiline: false), at: open) }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                defer { i += 1 }
                guard escaped else { return String(decoding: bytes[runStart..<i], as: UTF8.self) }
                out += bytes[runStart..<i]
                return String(decoding: out, as: UTF8.self)
            } else if b == UInt8(ascii: "\\") {
                out += bytes[runStart..<i]
                escaped = true
                try parseEscape(into: &out, multiline: false)
                runStart = i
            } else if Self.isControl(b) {
                throw error(.controlCharacter(UInt32(b), in: "a basic string"))
            } else {
                i += 1
            }
        }
    }

    /// A literal string at the read position: everything up to the next `'` on the same line, as written.
    mutating func parseLiteralString() throws(TOMLSyntaxError) -> String {
        let open = i
        i += 1
        let contentStart = i
        while true {
            guard i < bytes.count, !isNewline(at: i) else { throw error(.unterminatedString(multiline: false), at: open) }
            let b = bytes[i]
            if b == UInt8(ascii: "'") {
                defer { i += 1 }
                return String(decoding: bytes[contentStart..<i], as: UTF8.self)
            }
            if Self.isControl(b) { throw error(.controlCharacter(UInt32(b), in: "a literal string")) }
            i += 1
        }
    }

    /// `"""…"""`: a newline right after the opening quotes is dropped, a backslash at the end of
    /// a line drops the line break and the whitespace after it, and up to two quotes may come
    /// right before the closing ones.
    mutating func parseMultilineBasicString() throws(TOMLSyntaxError) -> String {
        let open = i
        i += 3
        _ = skipNewline()
        var runStart = i
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw error(.unterminatedString(multiline: true), at: open) }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                guard let closingQuotes = closingQuoteCount(b) else {
                    i += 1
                    continue
                }
                out += bytes[runStart..<i]
                out += repeatElement(b, count: closingQuotes - 3)
                i += closingQuotes
                return String(decoding: out, as: UTF8.self)
            } else if b == UInt8(ascii: "\\") {
                out += bytes[runStart..<i]
                var j = i + 1
                while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
                if isNewline(at: j) {
                    // Line-ending backslash: drop everything blank up to the next other character.
                    i = j
                    while i < bytes.count {
                        if bytes[i] == 0x20 || bytes[i] == 0x09 {
                            i += 1
                        } else if !skipNewline() {
                            break
                        }
                    }
                } else {
                    try parseEscape(into: &out, multiline: true)
                }
                runStart = i
            } else if b == 0x0A || isNewline(at: i) {
                i += b == 0x0D ? 2 : 1
            } else if Self.isControl(b) {
                throw error(.controlCharacter(UInt32(b), in: "a multi-line basic string"))
            } else {
                i += 1
            }
        }
    }

    /// `'''…'''`: as written, except a newline right after the opening quotes.
    mutating func parseMultilineLiteralString() throws(TOMLSyntaxError) -> String {
        let open = i
        i += 3
        _ = skipNewline()
        let contentStart = i
        while true {
            guard i < bytes.count else { throw error(.unterminatedString(multiline: true), at: open) }
            let b = bytes[i]
            if b == UInt8(ascii: "'") {
                guard let closingQuotes = closingQuoteCount(b) else {
                    i += 1
                    continue
                }
                var content = Array(bytes[contentStart..<i])
                content += repeatElement(b, count: closingQuotes - 3)
                i += closingQuotes
                return String(decoding: content, as: UTF8.self)
            } else if b == 0x0A || isNewline(at: i) {
                i += b == 0x0D ? 2 : 1
            } else if Self.isControl(b) {
                throw error(.controlCharacter(UInt32(b), in: "a multi-line literal string"))
            } else {
                i += 1
            }
        }
    }

    /// At a run of three to five `quote`s: its length (the closing delimiter and up to two quotes
    /// of content before it); nil for a run of one or two, which is content.
    func closingQuoteCount(_ quote: UInt8) -> Int? {
        var n = 0
        while n < 5, i + n < bytes.count, bytes[i + n] == quote { n += 1 }
        return n >= 3 ? n : nil
    }

    /// An escape sequence at the read position (its backslash), appended to `out` as UTF-8.
    mutating func parseEscape(into out: inout [UInt8], multiline: Bool) throws(TOMLSyntaxError) {
        let escapeStart = i
        i += 1
        guard i < bytes.count else { throw error(.unterminatedString(multiline: multiline), at: escapeStart) }
        let e = bytes[i]
        i += 1
        switch e {
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let digits = e == UInt8(ascii: "u") ? 4 : 8
            var value: UInt32 = 0
            for _ in 0..<digits {
                guard i < bytes.count, let d = PercentEncoding.hexValue(bytes[i]) else {
                    throw error(.invalidEscape(String(decoding: bytes[escapeStart..<i], as: UTF8.self)), at: escapeStart)
                }
                value = value << 4 | UInt32(d)
                i += 1
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw error(.invalidUnicodeEscape(String(decoding: bytes[escapeStart..<i], as: UTF8.self)), at: escapeStart)
            }
            UTF8.encode(scalar) { out.append($0) }
        default:
            let shown = e > 0x20 && e < 0x7F ? "\\" + String(UnicodeScalar(e)) : "\\ followed by " + describe(i - 1)
            throw error(.invalidEscape(shown), at: escapeStart)
        }
    }
}
