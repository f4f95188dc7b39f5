/// Keys, key/value pairs and table headers, with TOML 1.0's rules on what may be defined where.
extension TOMLParser {
    /// One part of a (dotted) key and where it is written.
    struct KeyPart {
        var key: String
        var location: TextLocation
    }

    /// A key path for messages, as headers and dotted keys write it: without array indices.
    static func name(_ path: TOMLKeyPath) -> String {
        TOMLKeyPath(path.components.filter { if case .key = $0 { true } else { false } }).description
    }

    static func isBareKeyByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F
    }

    /// A simple or dotted key (`a`, `"a b"`, `'c'`, `a."b.c".d`) and the whitespace after it.
    /// `expected` names what was expected if there is no key at all.
    mutating func parseKey(expected: String) throws(TOMLSyntaxError) -> [KeyPart] {
        var parts: [KeyPart] = []
        while true {
            guard i < bytes.count else { throw unexpected(parts.isEmpty ? expected : "a key after '.'") }
            let location = location(i)
            let b = bytes[i]
            let key: String
            if b == UInt8(ascii: "\"") {
                key = try parseBasicString()
            } else if b == UInt8(ascii: "'") {
                key = try parseLiteralString()
            } else if Self.isBareKeyByte(b) {
                let keyStart = i
                while i < bytes.count, Self.isBareKeyByte(bytes[i]) { i += 1 }
                key = String(decoding: bytes[keyStart..<i], as: UTF8.self)
            } else {
                throw unexpected(parts.isEmpty ? expected : "a key after '.'")
            }
            parts.append(KeyPart(key: key, location: location))
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ".") else { return parts }
            i += 1
            skipWhitespace()
        }
    }

    /// `key = value` into `table` (the current table section's, or an inline table's). Problems
    /// with where the key may go are reported where the value starts, once the whole key is read.
    mutating func parseKeyValue(into table: TOMLTableBuilder, section: Int, inline: Bool) throws(TOMLSyntaxError) {
        let parts = try parseKey(expected: inline ? "a key" : "a key, a [table] header or a comment")
        guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { throw unexpected("'=' after the key") }
        i += 1
        skipWhitespace()
        let valueStart = i
        guard let last = parts.last else { throw unexpected("a key") }
        let parent = try tableForKeyValue(parts, in: table, section: section, at: valueStart)
        let value = try parseValue(depth: parent.depth + 1, path: parent.path.appending(last.key))
        parent.add(last.key, at: last.location, .value(value))
    }

    /// The table the last part of `parts` goes into, below `base`: the tables of the other parts
    /// are made as needed (`a.b.c = 1` makes `a` and `a.b`). Dotted keys may add to tables that
    /// dotted keys of the same section made, or that were made only as parents of headers; not
    /// to a table a header defined, an inline table, or a value of another kind.
    mutating func tableForKeyValue(_ parts: [KeyPart], in base: TOMLTableBuilder, section: Int, at errorIndex: Int) throws(TOMLSyntaxError) -> TOMLTableBuilder {
        var table = base
        for part in parts.dropLast() {
            // Only for new tables and messages.
            lazy var path = table.path.appending(part.key)
            guard let entry = table[part.key] else {
                guard table.depth < Self.maxDepth else { throw error(.tooDeep(limit: Self.maxDepth), at: errorIndex) }
                let child = TOMLTableBuilder(origin: .dotted(section: section), location: part.location, path: path, depth: table.depth + 1)
                table.add(part.key, at: part.location, .table(child))
                table = child
                continue
            }
            switch entry.member {
            case .value(let value):
                if case .table = value.kind { throw error(.inlineTableExtended(Self.name(path), first: value.location), at: errorIndex) }
                throw error(.notATable(Self.name(path), kind: value.kindName, first: value.location), at: errorIndex)
            case .tableArray(_, let first):
                throw error(.notATable(Self.name(path), kind: "an array of tables", first: first), at: errorIndex)
            case .table(let child):
                switch child.origin {
                case .dotted(let s) where s == section:
                    break
                case .implicit:
                    child.origin = .dotted(section: section)
                    child.definedAt = part.location
                case .inline:
                    throw error(.inlineTableExtended(Self.name(path), first: child.definedAt), at: errorIndex)
                case .dotted, .header, .root:
                    throw error(.tableDefinedElsewhere(Self.name(path), first: child.definedAt), at: errorIndex)
                }
                table = child
            }
        }
        if let last = parts.last, let existing = table[last.key] {
            throw error(.duplicateKey(Self.name(table.path.appending(last.key)), first: existing.keyLocation), at: errorIndex)
        }
        return table
    }

    /// `[a.b]` or `[[a.b]]`: makes the named table (or the next element of the array of tables)
    /// the current one. Problems are reported at the header's `[`.
    mutating func parseHeader() throws(TOMLSyntaxError) {
        let headerStart = i
        let headerLocation = location(i)
        i += 1
        let isArray = i < bytes.count && bytes[i] == UInt8(ascii: "[")
        if isArray { i += 1 }
        skipWhitespace()
        let parts = try parseKey(expected: isArray ? "a key in the [[array of tables]] header" : "a key in the [table] header")
        let close = isArray ? "']]' to close the [[array of tables]] header" : "']' to close the [table] header"
        guard i < bytes.count, bytes[i] == UInt8(ascii: "]") else { throw unexpected(close) }
        i += 1
        if isArray {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "]") else { throw unexpected(close) }
            i += 1
        }
        sectionCount += 1
        section = sectionCount
        current = try openTable(parts, isArray: isArray, at: headerLocation, index: headerStart)
    }

    /// The table a header names, made or defined now; parents are made as needed, and the last
    /// element of an array of tables stands for the array on the way.
    mutating func openTable(_ parts: [KeyPart], isArray: Bool, at location: TextLocation, index: Int) throws(TOMLSyntaxError) -> TOMLTableBuilder {
        var table = root
        for (n, part) in parts.enumerated() {
            let isLast = n == parts.count - 1
            // Only for new tables and messages.
            lazy var path = table.path.appending(part.key)
            guard let entry = table[part.key] else {
                guard table.depth + (isLast && isArray ? 1 : 0) < Self.maxDepth else { throw error(.tooDeep(limit: Self.maxDepth), at: index) }
                if !isLast {
                    let child = TOMLTableBuilder(origin: .implicit, location: part.location, path: path, depth: table.depth + 1)
                    table.add(part.key, at: part.location, .table(child))
                    table = child
                } else if isArray {
                    let element = TOMLTableBuilder(origin: .header, location: location, path: path.appending(0), depth: table.depth + 2)
                    table.add(part.key, at: location, .tableArray([element], location: location))
                    return element
                } else {
                    let child = TOMLTableBuilder(origin: .header, location: location, path: path, depth: table.depth + 1)
                    table.add(part.key, at: location, .table(child))
                    return child
                }
                continue
            }
            switch entry.member {
            case .value(let value):
                if case .table = value.kind { throw error(.inlineTableExtended(Self.name(path), first: value.location), at: index) }
                if isLast, isArray, case .array = value.kind {
                    throw error(.staticArrayExtended(Self.name(path), first: value.location), at: index)
                }
                throw error(.notATable(Self.name(path), kind: value.kindName, first: value.location), at: index)
            case let .tableArray(elements, first):
                if isLast {
                    guard isArray else { throw error(.arrayOfTablesAsTable(Self.name(path), first: first), at: index) }
                    let element = TOMLTableBuilder(origin: .header, location: location, path: path.appending(elements.count), depth: table.depth + 2)
                    table.appendTableArrayElement(part.key, element)
                    return element
                }
                guard let lastElement = elements.last else { throw error(.arrayOfTablesAsTable(Self.name(path), first: first), at: index) }
                table = lastElement
            case .table(let child):
                if !isLast {
                    table = child
                    continue
                }
                if isArray { throw error(.tableAsArrayOfTables(Self.name(path), first: child.definedAt), at: index) }
                switch child.origin {
                case .implicit:
                    child.origin = .header
                    child.location = location
                    child.definedAt = location
                    table.setKeyLocation(part.key, location)
                    return child
                case .header, .root:
                    throw error(.tableDefinedTwice(Self.name(path), first: child.definedAt), at: index)
                case .dotted:
                    throw error(.tableDefinedByDottedKeys(Self.name(path), first: child.definedAt), at: index)
                case .inline:
                    throw error(.inlineTableExtended(Self.name(path), first: child.definedAt), at: index)
                }
            }
        }
        return table
    }
}
