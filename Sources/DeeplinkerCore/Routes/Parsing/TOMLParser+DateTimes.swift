/// RFC 3339 date-times as TOML 1.0 has them: offset date-time, local date-time, local date and
/// local time. Seconds are required; fractions may have any number of digits; `T`, `t` or one
/// space joins date and time; the offset is `Z`, `z` or `±HH:MM`. Days are checked against the
/// month and leap years. The value is kept as written.
extension TOMLParser {
    /// `YYYY-MM-DD` (shape only).
    static func isFullDate(_ b: ArraySlice<UInt8>) -> Bool {
        let s = b.startIndex
        return b.count == 10 && b[s + 4] == UInt8(ascii: "-") && b[s + 7] == UInt8(ascii: "-")
            && [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { isDigit(b[s + $0]) }
    }

    /// A token that starts with four digits and `-`: a date, optionally with a time and offset.
    mutating func parseDateTime(_ token: ArraySlice<UInt8>, text: String, at start: Int) throws(TOMLSyntaxError) -> TOMLValue.Kind {
        let s = token.startIndex
        guard token.count >= 10, Self.isFullDate(token[s..<(s + 10)]) else {
            throw error(.invalidDateTime(text, reason: "a date is written YYYY-MM-DD"), at: start)
        }
        let year = Self.number(token[s..<(s + 4)]), month = Self.number(token[(s + 5)..<(s + 7)]), day = Self.number(token[(s + 8)..<(s + 10)])
        guard (1...12).contains(month) else { throw error(.invalidDateTime(text, reason: "there is no month \(month)"), at: start) }
        guard day >= 1, day <= Self.daysIn(month: month, year: year) else {
            throw error(.invalidDateTime(text, reason: "month \(month) of \(year) has no day \(day)"), at: start)
        }
        guard token.count > 10 else { return .localDate(text) }
        let delimiter = token[s + 10]
        guard delimiter == UInt8(ascii: "T") || delimiter == UInt8(ascii: "t") || delimiter == 0x20 else {
            throw error(.invalidDateTime(text, reason: "date and time are joined by T or a space"), at: start)
        }
        let timeEnd = try partialTimeEnd(token[(s + 11)...], text: text, at: start)
        let offset = token[timeEnd...]
        if offset.isEmpty { return .localDateTime(text) }
        if offset.count == 1, offset.first == UInt8(ascii: "Z") || offset.first == UInt8(ascii: "z") { return .offsetDateTime(text) }
        let o = offset.startIndex
        guard offset.count == 6, offset[o] == UInt8(ascii: "+") || offset[o] == UInt8(ascii: "-"),
            Self.isDigit(offset[o + 1]), Self.isDigit(offset[o + 2]), offset[o + 3] == UInt8(ascii: ":"),
            Self.isDigit(offset[o + 4]), Self.isDigit(offset[o + 5])
        else {
            throw error(.invalidDateTime(text, reason: "the offset is Z or ±HH:MM"), at: start)
        }
        guard Self.number(offset[(o + 1)..<(o + 3)]) <= 23, Self.number(offset[(o + 4)..<(o + 6)]) <= 59 else {
            throw error(.invalidDateTime(text, reason: "the offset's hours must be 00–23 and its minutes 00–59"), at: start)
        }
        return .offsetDateTime(text)
    }

    /// A token that starts with two digits and `:`: a local time and nothing else.
    mutating func parseLocalTime(_ token: ArraySlice<UInt8>, text: String, at start: Int) throws(TOMLSyntaxError) -> TOMLValue.Kind {
        let end = try partialTimeEnd(token, text: text, at: start)
        guard end == token.endIndex else {
            throw error(.invalidDateTime(text, reason: "a local time has no offset or other text after it"), at: start)
        }
        return .localTime(text)
    }

    /// Checks `HH:MM:SS[.fraction]` at the start of `b` and returns where it ends.
    mutating func partialTimeEnd(_ b: ArraySlice<UInt8>, text: String, at start: Int) throws(TOMLSyntaxError) -> Int {
        let s = b.startIndex
        guard b.count >= 8, b[s + 2] == UInt8(ascii: ":"), b[s + 5] == UInt8(ascii: ":"),
            [0, 1, 3, 4, 6, 7].allSatisfy({ Self.isDigit(b[s + $0]) })
        else {
            throw error(.invalidDateTime(text, reason: "a time is written HH:MM:SS with optional fractional seconds"), at: start)
        }
        let hour = Self.number(b[s..<(s + 2)]), minute = Self.number(b[(s + 3)..<(s + 5)]), second = Self.number(b[(s + 6)..<(s + 8)])
        guard hour <= 23, minute <= 59, second <= 60 else {
            throw error(.invalidDateTime(text, reason: "hours must be 00–23, minutes 00–59 and seconds 00–60"), at: start)
        }
        var end = s + 8
        if end < b.endIndex, b[end] == UInt8(ascii: ".") {
            end += 1
            let digitsStart = end
            while end < b.endIndex, Self.isDigit(b[end]) { end += 1 }
            guard end > digitsStart else {
                throw error(.invalidDateTime(text, reason: "a decimal point in the seconds must be followed by digits"), at: start)
            }
        }
        return end
    }

    /// The value of a few ASCII digits.
    static func number(_ digits: ArraySlice<UInt8>) -> Int {
        digits.reduce(0) { $0 * 10 + Int($1 &- 0x30) }
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
