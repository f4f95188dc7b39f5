/// Values: strings, arrays and inline tables by their first character; numbers, booleans and
/// date-times as one bare token.
extension TOMLParser {
    /// The value at the read position. `depth` is its nesting level, `path` its key path (for
    /// messages about keys inside inline tables; made only for inline tables and arrays).
    mutating func parseValue(depth: Int, path: @autoclosure () -> TOMLKeyPath) throws(TOMLSyntaxError) -> TOMLValue {
        guard i < bytes.count else { throw unexpected("a value") }
        let valueStart = i
        let location = location(i)
        switch bytes[i] {
        case UInt8(ascii: "\""):
            if startsTriple(UInt8(ascii: "\"")) { return TOMLValue(.string(try parseMultilineBasicString()), at: location) }
            return TOMLValue(.string(try parseBasicString()), at: location)
        case UInt8(ascii: "'"):
            if startsTriple(UInt8(ascii: "'")) { return TOMLValue(.string(try parseMultilineLiteralString()), at: location) }
            return TOMLValue(.string(try parseLiteralString()), at: location)
        case UInt8(ascii: "["):
            guard depth <= Self.maxDepth else { throw error(.tooDeep(limit: Self.maxDepth)) }
            return TOMLValue(.array(try parseArray(depth: depth, path: path())), at: location)
        case UInt8(ascii: "{"):
            guard depth <= Self.maxDepth else { throw error(.tooDeep(limit: Self.maxDepth)) }
            return TOMLValue(.table(try parseInlineTable(depth: depth, path: path(), location: location)), at: location)
        default:
            return TOMLValue(try parseBareValue(at: valueStart), at: location)
        }
    }

    /// Three `quote`s at the read position.
    func startsTriple(_ quote: UInt8) -> Bool {
        i + 2 < bytes.count && bytes[i] == quote && bytes[i + 1] == quote && bytes[i + 2] == quote
    }

    /// `[ value, value, ]`: any kinds mixed, newlines and comments between the values, an optional
    /// trailing comma.
    mutating func parseArray(depth: Int, path: TOMLKeyPath) throws(TOMLSyntaxError) -> [TOMLValue] {
        let open = i
        i += 1
        var elements: [TOMLValue] = []
        while true {
            try skipBlankLinesAndComments()
            guard i < bytes.count else { throw error(.unclosed("array", closer: "]"), at: open) }
            if bytes[i] == UInt8(ascii: "]") {
                i += 1
                return elements
            }
            elements.append(try parseValue(depth: depth + 1, path: path.appending(elements.count)))
            try skipBlankLinesAndComments()
            guard i < bytes.count else { throw error(.unclosed("array", closer: "]"), at: open) }
            switch bytes[i] {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"):
                i += 1
                return elements
            default: throw unexpected("',' or ']' in the array")
            }
        }
    }

    /// `{ key = value, key = value }` on one line, without a trailing comma. Its keys follow the
    /// same rules as a table's (dotted keys may build sub-tables in it); it is complete afterwards.
    mutating func parseInlineTable(depth: Int, path: TOMLKeyPath, location: TextLocation) throws(TOMLSyntaxError) -> TOMLTable {
        let open = i
        i += 1
        sectionCount += 1
        let table = TOMLTableBuilder(origin: .inline, location: location, path: path, depth: depth)
        let inlineSection = sectionCount
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
            return table.build()
        }
        while true {
            if isNewline(at: i) { throw error(.newlineInInlineTable) }
            guard i < bytes.count else { throw error(.unclosed("inline table", closer: "}"), at: open) }
            try parseKeyValue(into: table, section: inlineSection, inline: true)
            skipWhitespace()
            guard i < bytes.count else { throw error(.unclosed("inline table", closer: "}"), at: open) }
            switch bytes[i] {
            case UInt8(ascii: ","):
                let comma = i
                i += 1
                skipWhitespace()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { throw error(.trailingCommaInInlineTable, at: comma) }
            case UInt8(ascii: "}"):
                i += 1
                return table.build()
            default:
                if isNewline(at: i) { throw error(.newlineInInlineTable) }
                throw unexpected("',' or '}' in the inline table")
            }
        }
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    /// Characters of numbers, booleans, inf/nan and date-times.
    static func isBareValueByte(_ b: UInt8) -> Bool {
        isBareKeyByte(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: ".") || b == UInt8(ascii: ":")
    }

    /// A boolean, number or date-time: the run of characters these are written with (plus the one
    /// space TOML allows between a date and a time), then classified and checked.
    mutating func parseBareValue(at tokenStart: Int) throws(TOMLSyntaxError) -> TOMLValue.Kind {
        while i < bytes.count, Self.isBareValueByte(bytes[i]) { i += 1 }
        if i - tokenStart == 10, Self.isFullDate(bytes[tokenStart..<i]), i + 3 < bytes.count, bytes[i] == 0x20,
            Self.isDigit(bytes[i + 1]), Self.isDigit(bytes[i + 2]), bytes[i + 3] == UInt8(ascii: ":")
        {
            i += 1
            while i < bytes.count, Self.isBareValueByte(bytes[i]) { i += 1 }
        }
        guard i > tokenStart else { throw unexpected("a value") }
        let token = bytes[tokenStart..<i]
        let text = String(decoding: token, as: UTF8.self)
        switch text {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "inf", "+inf": return .float(.infinity)
        case "-inf": return .float(-.infinity)
        case "nan", "+nan": return .float(.nan)
        case "-nan": return .float(-.nan)
        default: break
        }
        let first = token[tokenStart]
        if token.count >= 5, token[tokenStart + 4] == UInt8(ascii: "-"), token.prefix(4).allSatisfy(Self.isDigit) {
            return try parseDateTime(token, text: text, at: tokenStart)
        }
        if token.count >= 3, token[tokenStart + 2] == UInt8(ascii: ":"), token.prefix(2).allSatisfy(Self.isDigit) {
            return try parseLocalTime(token, text: text, at: tokenStart)
        }
        if !Self.isDigit(first), first != UInt8(ascii: "+"), first != UInt8(ascii: "-"), first != UInt8(ascii: ".") {
            throw error(.invalidValue(text), at: tokenStart)
        }
        return try parseNumber(token, text: text, at: tokenStart)
    }
}
