internal import CDBus

extension DBusMessage {
    /// Deepest container nesting accepted when appending (libdbus allows 32 per signature).
    public static let maximumNesting = 32

    /// Appends values to the message body; refuses malformed values with `InvalidArgs`.
    public func append(_ values: [DBusValue]) throws(DBusError) {
        for value in values { try Self.validate(value, depth: 0) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iter)
        for value in values { try Self.write(value, into: &iter) }
    }

    /// The message body as values.
    public func arguments() throws(DBusError) -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return [] }
        var out: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != TypeCode.invalid {
            out.append(try Self.read(&iter))
            dbus_message_iter_next(&iter)
        }
        return out
    }

    // MARK: - Validation

    /// Whether `values` are well-formed apart from their strings, object paths and signatures,
    /// which `dbus_message_demarshal` checks itself: what the wire encoder's fast path needs first.
    static func isWellFormedExceptStrings(_ values: [DBusValue]) -> Bool {
        for value in values where (try? validate(value, depth: 0, strings: false)) == nil { return false }
        return true
    }

    private static func validate(_ value: DBusValue, depth: Int, strings: Bool = true) throws(DBusError) {
        guard depth <= maximumNesting else {
            throw .invalidArgs("value nested deeper than \(maximumNesting) containers")
        }
        switch value {
        case .string(let s): if strings { try Validation.check(string: s) }
        case .objectPath(let p): if strings { try Validation.check(path: p) }
        case .signature(let g): if strings { try Validation.check(signature: g) }
        case .array(let element, let items):
            try Validation.check(singleCompleteType: element)
            guard Self.nesting(of: element) + depth < maximumNesting else {
                throw .invalidArgs("array of '\(element)' nested deeper than \(maximumNesting) containers")
            }
            for item in items {
                guard item.signature == element else {
                    throw .invalidArgs("array element of type '\(item.signature)' in an array of '\(element)'")
                }
                try validate(item, depth: depth + 1, strings: strings)
            }
        case .dictionary(let key, let valueSignature, let entries):
            guard key.utf8.count == 1, let code = key.utf8.first, "ybnqiuxtdsog".utf8.contains(code) else {
                throw .invalidArgs("dictionary key type '\(Validation.printable(key))' is not a basic type")
            }
            try Validation.check(singleCompleteType: valueSignature)
            for entry in entries {
                guard entry.key.signature == key, entry.value.signature == valueSignature else {
                    throw .invalidArgs(
                        "dictionary entry {\(entry.key.signature)\(entry.value.signature)} in a{\(key)\(valueSignature)}")
                }
                try validate(entry.key, depth: depth + 2, strings: strings)
                try validate(entry.value, depth: depth + 2, strings: strings)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw .invalidArgs("empty structure") }
            for field in fields { try validate(field, depth: depth + 1, strings: strings) }
        case .variant(let inner):
            try validate(inner, depth: depth + 1, strings: strings)
        case .byte, .boolean, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double:
            break
        }
    }

    /// How many containers a signature opens at its deepest.
    private static func nesting(of signature: String) -> Int {
        var deepest = 0
        var current = 0
        var arrays = 0
        for c in signature.utf8 {
            switch c {
            case UInt8(ascii: "a"): arrays += 1
            case UInt8(ascii: "("), UInt8(ascii: "{"):
                current += 1 + arrays
                arrays = 0
                deepest = max(deepest, current)
            case UInt8(ascii: ")"), UInt8(ascii: "}"):
                current -= 1
            default:
                deepest = max(deepest, current + arrays)
                arrays = 0
            }
        }
        return deepest
    }

    // MARK: - Writing

    private static func write(_ value: DBusValue, into iter: inout DBusMessageIter) throws(DBusError) {
        var ok: dbus_bool_t = 1
        switch value {
        case .byte(var v): ok = dbus_message_iter_append_basic(&iter, TypeCode.byte, &v)
        case .boolean(let b):
            var v: dbus_bool_t = b ? 1 : 0
            ok = dbus_message_iter_append_basic(&iter, TypeCode.boolean, &v)
        case .int16(var v): ok = dbus_message_iter_append_basic(&iter, TypeCode.int16, &v)
        case .uint16(var v): ok = dbus_message_iter_append_basic(&iter, TypeCode.uint16, &v)
        case .int32(var v): ok = dbus_message_iter_append_basic(&iter, TypeCode.int32, &v)
        case .uint32(var v): ok = dbus_message_iter_append_basic(&iter, TypeCode.uint32, &v)
        case .int64(var v): ok = dbus_message_iter_append_basic(&iter, TypeCode.int64, &v)
        case .uint64(var v): ok = dbus_message_iter_append_basic(&iter, TypeCode.uint64, &v)
        case .double(var v): ok = dbus_message_iter_append_basic(&iter, TypeCode.double, &v)
        case .string(let s): ok = appendString(s, TypeCode.string, &iter)
        case .objectPath(let s): ok = appendString(s, TypeCode.objectPath, &iter)
        case .signature(let s): ok = appendString(s, TypeCode.signature, &iter)
        case .array(let element, let items):
            try container(TypeCode.array, element, &iter) { (sub) throws(DBusError) in
                for item in items { try write(item, into: &sub) }
            }
        case .dictionary(let key, let valueSignature, let entries):
            try container(TypeCode.array, "{" + key + valueSignature + "}", &iter) { (sub) throws(DBusError) in
                for entry in entries {
                    try container(TypeCode.dictEntry, nil, &sub) { (pair) throws(DBusError) in
                        try write(entry.key, into: &pair)
                        try write(entry.value, into: &pair)
                    }
                }
            }
        case .structure(let fields):
            try container(TypeCode.structure, nil, &iter) { (sub) throws(DBusError) in
                for field in fields { try write(field, into: &sub) }
            }
        case .variant(let inner):
            try container(TypeCode.variant, inner.signature, &iter) { (sub) throws(DBusError) in
                try write(inner, into: &sub)
            }
        }
        guard ok != 0 else { throw .noMemory() }
    }

    private static func appendString(_ s: String, _ type: Int32, _ iter: inout DBusMessageIter) -> dbus_bool_t {
        s.withCString { pointer in
            var p: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iter, type, &p)
        }
    }

    private static func container(
        _ type: Int32, _ signature: String?, _ iter: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) throws(DBusError) -> Void
    ) throws(DBusError) {
        var sub = DBusMessageIter()
        let opened: dbus_bool_t
        if let signature {
            opened = signature.withCString { dbus_message_iter_open_container(&iter, type, $0, &sub) }
        } else {
            opened = dbus_message_iter_open_container(&iter, type, nil, &sub)
        }
        guard opened != 0 else { throw .noMemory() }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iter, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &sub) != 0 else { throw .noMemory() }
    }

    // MARK: - Reading

    private static func read(_ iter: inout DBusMessageIter) throws(DBusError) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&iter)
        switch type {
        case TypeCode.byte: return .byte(basic(&iter, UInt8(0)))
        case TypeCode.boolean: return .boolean(basic(&iter, dbus_bool_t(0)) != 0)
        case TypeCode.int16: return .int16(basic(&iter, Int16(0)))
        case TypeCode.uint16: return .uint16(basic(&iter, UInt16(0)))
        case TypeCode.int32: return .int32(basic(&iter, Int32(0)))
        case TypeCode.uint32: return .uint32(basic(&iter, UInt32(0)))
        case TypeCode.int64: return .int64(basic(&iter, Int64(0)))
        case TypeCode.uint64: return .uint64(basic(&iter, UInt64(0)))
        case TypeCode.double: return .double(basic(&iter, Double(0)))
        case TypeCode.string: return .string(cString(&iter))
        case TypeCode.objectPath: return .objectPath(cString(&iter))
        case TypeCode.signature: return .signature(cString(&iter))
        case TypeCode.variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .variant(try read(&sub))
        case TypeCode.structure:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            var fields: [DBusValue] = []
            while dbus_message_iter_get_arg_type(&sub) != TypeCode.invalid {
                fields.append(try read(&sub))
                dbus_message_iter_next(&sub)
            }
            return .structure(fields)
        case TypeCode.array:
            let full = currentSignature(&iter)
            let element = String(full.dropFirst())
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            if dbus_message_iter_get_element_type(&iter) == TypeCode.dictEntry {
                let inner = element.dropFirst().dropLast()
                let key = String(inner.prefix(1))
                let valueSignature = String(inner.dropFirst())
                var entries: [DBusDictEntry] = []
                while dbus_message_iter_get_arg_type(&sub) != TypeCode.invalid {
                    var pair = DBusMessageIter()
                    dbus_message_iter_recurse(&sub, &pair)
                    let k = try read(&pair)
                    dbus_message_iter_next(&pair)
                    let v = try read(&pair)
                    entries.append(DBusDictEntry(key: k, value: v))
                    dbus_message_iter_next(&sub)
                }
                return .dictionary(keySignature: key, valueSignature: valueSignature, entries)
            }
            var items: [DBusValue] = []
            while dbus_message_iter_get_arg_type(&sub) != TypeCode.invalid {
                items.append(try read(&sub))
                dbus_message_iter_next(&sub)
            }
            return .array(elementSignature: element, items)
        default:
            throw .invalidArgs("unsupported D-Bus type code '\(Character(Unicode.Scalar(UInt8(truncatingIfNeeded: type))))'")
        }
    }

    private static func basic<T>(_ iter: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iter, $0) }
        return value
    }

    private static func cString(_ iter: inout DBusMessageIter) -> String {
        var p: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&iter, &p)
        return p.map { String(cString: $0) } ?? ""
    }

    private static func currentSignature(_ iter: inout DBusMessageIter) -> String {
        guard let p = dbus_message_iter_get_signature(&iter) else { return "" }
        defer { dbus_free(p) }
        return String(cString: p)
    }
}
