extension DBusValue {
    /// `as`
    public static func strings(_ values: [String]) -> DBusValue {
        .array(elementSignature: "s", values.map { .string($0) })
    }

    /// `a{ss}`, keys sorted so that equal dictionaries marshal identically.
    public static func stringDictionary(_ values: [String: String]) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "s",
            values.sorted { $0.key < $1.key }.map { DBusDictEntry(key: .string($0.key), value: .string($0.value)) })
    }

    /// `a{sv}`, keys sorted.
    public static func variantDictionary(_ values: [String: DBusValue]) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            values.sorted { $0.key < $1.key }.map { DBusDictEntry(key: .string($0.key), value: .variant($0.value)) })
    }

    public var stringValue: String? {
        switch self {
        case .string(let s), .objectPath(let s), .signature(let s): s
        case .variant(let inner): inner.stringValue
        default: nil
        }
    }

    public var boolValue: Bool? {
        switch self {
        case .boolean(let b): b
        case .variant(let inner): inner.boolValue
        default: nil
        }
    }

    public var uint32Value: UInt32? {
        switch self {
        case .uint32(let v): v
        case .variant(let inner): inner.uint32Value
        default: nil
        }
    }

    public var int64Value: Int64? {
        switch self {
        case .int64(let v): v
        case .int32(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .variant(let inner): inner.int64Value
        default: nil
        }
    }

    /// The elements of an array, or of an array inside a variant.
    public var arrayElements: [DBusValue]? {
        switch self {
        case .array(_, let elements): elements
        case .variant(let inner): inner.arrayElements
        default: nil
        }
    }

    public var stringArray: [String]? {
        guard let elements = arrayElements else { return nil }
        var out: [String] = []
        out.reserveCapacity(elements.count)
        for element in elements {
            guard case .string(let s) = element else { return nil }
            out.append(s)
        }
        return out
    }

    /// The entries of a dictionary, or of a dictionary inside a variant.
    public var dictionaryEntries: [DBusDictEntry]? {
        switch self {
        case .dictionary(_, _, let entries): entries
        case .variant(let inner): inner.dictionaryEntries
        default: nil
        }
    }

    /// `a{ss}` as a Swift dictionary; the first of repeated keys wins.
    public var stringDictionaryValue: [String: String]? {
        guard let entries = dictionaryEntries else { return nil }
        var out: [String: String] = [:]
        for entry in entries {
            guard case .string(let k) = entry.key, case .string(let v) = entry.value else { return nil }
            if out[k] == nil { out[k] = v }
        }
        return out
    }

    /// `a{sv}` as a Swift dictionary of the variants' contents; the first of repeated keys wins.
    public var variantDictionaryValue: [String: DBusValue]? {
        guard let entries = dictionaryEntries else { return nil }
        var out: [String: DBusValue] = [:]
        for entry in entries {
            guard case .string(let k) = entry.key, case .variant(let v) = entry.value else { return nil }
            if out[k] == nil { out[k] = v }
        }
        return out
    }

    public var structureFields: [DBusValue]? {
        if case .structure(let fields) = self { return fields }
        return nil
    }
}
