/// Integers and floats. Underscores may only stand between two digits; decimal numbers may have a
/// sign and no leading zeros; `0x`, `0o` and `0b` integers have neither; every integer must fit
/// in 64 bits.
extension TOMLParser {
    /// `token` (written as `text`, starting at byte `start`) as an integer or a float.
    mutating func parseNumber(_ token: ArraySlice<UInt8>, text: String, at start: Int) throws(TOMLSyntaxError) -> TOMLValue.Kind {
        var rest = token
        var negative = false
        if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            rest = rest.dropFirst()
        }
        if rest.count >= 2, rest[rest.startIndex] == UInt8(ascii: "0"),
            let radix = Self.radix(of: rest[rest.startIndex + 1])
        {
            guard rest.count == token.count else {
                throw error(.invalidNumber(text, reason: "only decimal numbers may have a sign"), at: start)
            }
            return .integer(try parseRadixInteger(rest.dropFirst(2), radix: radix, text: text, at: start))
        }

        // Decimal: an integer part, then for a float a fraction, an exponent or both.
        let integerEnd = rest.firstIndex { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") } ?? rest.endIndex
        let integerPart = rest[..<integerEnd]
        if integerPart.isEmpty, integerEnd < rest.endIndex, rest[integerEnd] == UInt8(ascii: ".") {
            throw error(.invalidNumber(text, reason: "a decimal point must have digits on both sides"), at: start)
        }
        if let problem = Self.digitProblem(integerPart, isDigit: Self.isDigit) {
            throw error(.invalidNumber(text, reason: problem), at: start)
        }
        if integerPart.count > 1, integerPart.first == UInt8(ascii: "0") {
            throw error(.invalidNumber(text, reason: "leading zeros are not allowed"), at: start)
        }
        guard integerEnd < rest.endIndex else {
            return .integer(try decimalInteger(integerPart, negative: negative, text: text, at: start))
        }

        var k = integerEnd
        if rest[k] == UInt8(ascii: ".") {
            let fractionStart = k + 1
            k = rest[fractionStart...].firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") } ?? rest.endIndex
            if fractionStart == k {
                throw error(.invalidNumber(text, reason: "a decimal point must have digits on both sides"), at: start)
            }
            if let problem = Self.digitProblem(rest[fractionStart..<k], isDigit: Self.isDigit) {
                throw error(.invalidNumber(text, reason: problem), at: start)
            }
        }
        if k < rest.endIndex {
            // rest[k] is `e` or `E`.
            var exponent = rest[(k + 1)...]
            if let sign = exponent.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { exponent = exponent.dropFirst() }
            if exponent.isEmpty {
                throw error(.invalidNumber(text, reason: "the exponent needs digits"), at: start)
            }
            if let problem = Self.digitProblem(exponent, isDigit: Self.isDigit) {
                throw error(.invalidNumber(text, reason: problem), at: start)
            }
        }
        let digits = String(decoding: token.lazy.filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
        guard let value = Double(digits) else {
            throw error(.invalidNumber(text, reason: "not a float"), at: start)
        }
        guard value.isFinite else {
            throw error(.invalidNumber(text, reason: "too large for a 64-bit float"), at: start)
        }
        return .float(value)
    }

    static func radix(of b: UInt8) -> UInt64? {
        switch b {
        case UInt8(ascii: "x"): 16
        case UInt8(ascii: "o"): 8
        case UInt8(ascii: "b"): 2
        default: nil
        }
    }

    /// Why `digits` is not a run of digits with single underscores between them; nil if it is.
    static func digitProblem(_ digits: ArraySlice<UInt8>, isDigit: (UInt8) -> Bool) -> String? {
        guard let first = digits.first, let last = digits.last else { return "digits expected" }
        var previousUnderscore = false
        for b in digits {
            if b == UInt8(ascii: "_") {
                if previousUnderscore { return "an underscore must stand between two digits" }
                previousUnderscore = true
            } else if isDigit(b) {
                previousUnderscore = false
            } else {
                return "unexpected character \(Self.quoted(b))"
            }
        }
        if first == UInt8(ascii: "_") || last == UInt8(ascii: "_") { return "an underscore must stand between two digits" }
        return nil
    }

    /// A byte of a number token for a message: the character quoted.
    static func quoted(_ b: UInt8) -> String { "'" + String(UnicodeScalar(b)) + "'" }

    /// Digits after `0x`, `0o` or `0b`.
    mutating func parseRadixInteger(_ digits: ArraySlice<UInt8>, radix: UInt64, text: String, at start: Int) throws(TOMLSyntaxError) -> Int64 {
        let isDigit: (UInt8) -> Bool = { b in PercentEncoding.hexValue(b).map { UInt64($0) < radix } ?? false }
        if let problem = Self.digitProblem(digits, isDigit: isDigit) {
            throw error(.invalidNumber(text, reason: problem), at: start)
        }
        var value: UInt64 = 0
        for b in digits where b != UInt8(ascii: "_") {
            guard let d = PercentEncoding.hexValue(b) else { continue }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: radix)
            guard !overflow, shifted <= UInt64(Int64.max) - UInt64(d) else { throw error(.integerOutOfRange(text), at: start) }
            value = shifted + UInt64(d)
        }
        return Int64(value)
    }

    /// Checked decimal digits (and underscores) with their sign.
    mutating func decimalInteger(_ digits: ArraySlice<UInt8>, negative: Bool, text: String, at start: Int) throws(TOMLSyntaxError) -> Int64 {
        // Magnitudes up to 2^63, the size of Int64.min.
        let limit = UInt64(Int64.max) + (negative ? 1 : 0)
        var magnitude: UInt64 = 0
        for b in digits where b != UInt8(ascii: "_") {
            let d = UInt64(b &- 0x30)
            let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow, shifted <= limit - d else { throw error(.integerOutOfRange(text), at: start) }
            magnitude = shifted + d
        }
        if negative { return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude) }
        return Int64(magnitude)
    }
}
