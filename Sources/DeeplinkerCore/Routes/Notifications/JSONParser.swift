/// A small strict JSON (RFC 8259) parser with the payload limits of SPEC §4 built in: size
/// (`TooLarge`), nesting depth (`TooLarge`, checked while descending so deep input cannot exhaust
/// the stack), and UTF-8 / syntax errors (`InvalidPayload`).
public struct JSONParser {
    private let bytes: [UInt8]
    private var i = 0
    private let maxDepth: Int

    /// Parses `text` (at most `maxBytes` UTF-8 bytes, nesting at most `maxDepth`).
    public static func parse(_ text: String, maxBytes: Int = Limits.payloadBytes, maxDepth: Int = Limits.payloadDepth) throws(DeeplinkerError) -> JSONValue {
        try parse(bytes: Array(text.utf8), maxBytes: maxBytes, maxDepth: maxDepth)
    }

    /// Parses raw bytes, which must be valid UTF-8.
    public static func parse(bytes: [UInt8], maxBytes: Int = Limits.payloadBytes, maxDepth: Int = Limits.payloadDepth) throws(DeeplinkerError) -> JSONValue {
        guard bytes.count <= maxBytes else { throw .tooLarge(what: "payload JSON", size: bytes.count, limit: maxBytes) }
        guard String(validating: bytes, as: UTF8.self) != nil else { throw .invalidPayload("not valid UTF-8") }
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.i == bytes.count else { throw parser.syntaxError("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private func syntaxError(_ what: String) -> DeeplinkerError { .invalidPayload("invalid JSON at byte \(i): \(what)") }

    private mutating func skipWhitespace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    private mutating func expectLiteral(_ text: String, _ value: JSONValue) throws(DeeplinkerError) -> JSONValue {
        let lit = Array(text.utf8)
        guard i + lit.count <= bytes.count, Array(bytes[i..<(i + lit.count)]) == lit else { throw syntaxError("unexpected character") }
        i += lit.count
        return value
    }

    private mutating func parseValue(depth: Int) throws(DeeplinkerError) -> JSONValue {
        guard i < bytes.count else { throw syntaxError("unexpected end") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            guard depth + 1 <= maxDepth else { throw .tooLarge(what: "payload nesting depth", size: depth + 1, limit: maxDepth) }
            i += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            while true {
                skipWhitespace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw syntaxError("expected a string key") }
                let key = try parseString()
                skipWhitespace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw syntaxError("expected ':'") }
                i += 1
                skipWhitespace()
                let value = try parseValue(depth: depth + 1)
                if members[key] == nil { members[key] = value }
                skipWhitespace()
                guard i < bytes.count else { throw syntaxError("unexpected end in an object") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                guard bytes[i] == UInt8(ascii: "}") else { throw syntaxError("expected ',' or '}'") }
                i += 1
                return .object(members)
            }
        case UInt8(ascii: "["):
            guard depth + 1 <= maxDepth else { throw .tooLarge(what: "payload nesting depth", size: depth + 1, limit: maxDepth) }
            i += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(elements) }
            while true {
                skipWhitespace()
                elements.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard i < bytes.count else { throw syntaxError("unexpected end in an array") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                guard bytes[i] == UInt8(ascii: "]") else { throw syntaxError("expected ',' or ']'") }
                i += 1
                return .array(elements)
            }
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"): return try expectLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try expectLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try expectLiteral("null", .null)
        default:
            return try parseNumber()
        }
    }

    private func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= 0x30 && bytes[at] <= 0x39 }

    private mutating func parseNumber() throws(DeeplinkerError) -> JSONValue {
        let start = i
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard isDigit(i) else { throw syntaxError("unexpected character") }
        if bytes[i] == 0x30 {
            i += 1
        } else {
            while isDigit(i) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { throw syntaxError("expected a digit after '.'") }
            while isDigit(i) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard isDigit(i) else { throw syntaxError("expected an exponent") }
            while isDigit(i) { i += 1 }
        }
        return .number(String(decoding: bytes[start..<i], as: UTF8.self))
    }

    private mutating func hex4() throws(DeeplinkerError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw syntaxError("short \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let d = PercentEncoding.hexValue(bytes[i]) else { throw syntaxError("bad \\u escape") }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }

    private mutating func parseString() throws(DeeplinkerError) -> String {
        i += 1
        var out: [UInt8] = []
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 { throw syntaxError("control character in a string") }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                i += 1
                continue
            }
            i += 1
            guard i < bytes.count else { break }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var v = try hex4()
                if (0xD800...0xDBFF).contains(v) {
                    guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw syntaxError("unpaired surrogate")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw syntaxError("unpaired surrogate") }
                    v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(v) {
                    throw syntaxError("unpaired surrogate")
                }
                guard let scalar = Unicode.Scalar(v) else { throw syntaxError("bad \\u escape") }
                out += Array(String(Character(scalar)).utf8)
            default:
                throw syntaxError("bad escape")
            }
        }
        throw syntaxError("unterminated string")
    }
}
