/// Writes a whole D-Bus message (little-endian header and body) as bytes, for
/// `dbus_message_demarshal`: one validating pass in libdbus instead of an iterator append per
/// argument, each of which rewrites the header's signature field (3–4× the CPU for a reply or a
/// signal of a few strings). Returns nil for anything it does not handle, and callers then build
/// the message through libdbus's iterators, which also report the precise error.
struct WireEncoder {
    private(set) var bytes: [UInt8] = []
    /// Set when a signature longer than 255 bytes was met (the message is then left to libdbus).
    private(set) var failed = false

    /// Message types as on the wire.
    enum Kind: UInt8 {
        case methodCall = 1
        case methodReturn = 2
        case signal = 4
    }

    /// A header field: its code and value (an object path, a string, a signature or a `u`).
    enum Field {
        case objectPath(UInt8, String)
        case string(UInt8, String)
        case signature(UInt8, String)
        case uint32(UInt8, UInt32)
    }

    /// Header flags as on the wire.
    static let noReplyExpected: UInt8 = 0x1
    static let noAutoStart: UInt8 = 0x2

    /// The message's bytes with serial 1 (libdbus refuses 0 when demarshalling; the caller resets it
    /// so that the connection numbers it when sending). Flags default to no reply expected, as
    /// libdbus sets for signals and returns. Nil if the body signature would exceed 255 bytes.
    static func message(_ kind: Kind, flags: UInt8 = noReplyExpected, fields: [Field], body: [DBusValue]) -> [UInt8]? {
        var signature = ""
        for value in body { signature += value.signature }
        guard signature.utf8.count <= 255 else { return nil }
        var bodyEncoder = WireEncoder()
        bodyEncoder.bytes.reserveCapacity(128)
        for value in body { bodyEncoder.write(value) }
        guard !bodyEncoder.failed else { return nil }

        var out = WireEncoder()
        out.bytes.reserveCapacity(160 + bodyEncoder.bytes.count)
        out.bytes.append(contentsOf: [UInt8(ascii: "l"), kind.rawValue, flags, 1])
        out.uint32(UInt32(bodyEncoder.bytes.count))
        out.uint32(1)
        let lengthAt = out.bytes.count
        out.uint32(0)
        let start = out.bytes.count
        var all = fields
        if !signature.isEmpty { all.append(.signature(8, signature)) }
        for field in all {
            out.pad(to: 8)
            switch field {
            case .objectPath(let code, let value):
                out.bytes.append(code)
                out.signature("o")
                out.string(value)
            case .string(let code, let value):
                out.bytes.append(code)
                out.signature("s")
                out.string(value)
            case .signature(let code, let value):
                out.bytes.append(code)
                out.signature("g")
                out.signature(value)
            case .uint32(let code, let value):
                out.bytes.append(code)
                out.signature("u")
                out.uint32(value)
            }
        }
        out.setUInt32(UInt32(out.bytes.count - start), at: lengthAt)
        out.pad(to: 8)
        out.bytes.append(contentsOf: bodyEncoder.bytes)
        return out.failed ? nil : out.bytes
    }

    // MARK: - Values

    /// Appends `value` aligned as its type requires (alignment is relative to the message start,
    /// which is why the body is encoded separately: the header always ends 8-aligned).
    mutating func write(_ value: DBusValue) {
        switch value {
        case .byte(let v): bytes.append(v)
        case .boolean(let v): uint32(v ? 1 : 0)
        case .int16(let v): fixed(UInt16(bitPattern: v), size: 2)
        case .uint16(let v): fixed(v, size: 2)
        case .int32(let v): uint32(UInt32(bitPattern: v))
        case .uint32(let v): uint32(v)
        case .int64(let v): fixed(UInt64(bitPattern: v), size: 8)
        case .uint64(let v): fixed(v, size: 8)
        case .double(let v): fixed(v.bitPattern, size: 8)
        case .string(let s), .objectPath(let s): string(s)
        case .signature(let s): signature(s)
        case .array(let element, let items):
            array(alignment: Self.alignment(of: element)) { encoder in
                for item in items { encoder.write(item) }
            }
        case .dictionary(_, _, let entries):
            array(alignment: 8) { encoder in
                for entry in entries {
                    encoder.pad(to: 8)
                    encoder.write(entry.key)
                    encoder.write(entry.value)
                }
            }
        case .structure(let fields):
            pad(to: 8)
            for field in fields { write(field) }
        case .variant(let inner):
            signature(inner.signature)
            write(inner)
        }
    }

    /// The alignment of the first type in `signature`.
    static func alignment(of signature: String) -> Int {
        switch signature.utf8.first {
        case UInt8(ascii: "y"), UInt8(ascii: "g"), UInt8(ascii: "v"): 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
        default: 4
        }
    }

    private mutating func array(alignment: Int, _ body: (inout WireEncoder) -> Void) {
        pad(to: 4)
        let lengthAt = bytes.count
        uint32(0)
        pad(to: alignment)
        let start = bytes.count
        body(&self)
        setUInt32(UInt32(bytes.count - start), at: lengthAt)
    }

    mutating func pad(to alignment: Int) {
        let remainder = bytes.count % alignment
        if remainder != 0 { bytes.append(contentsOf: repeatElement(0, count: alignment - remainder)) }
    }

    private mutating func uint32(_ value: UInt32) {
        fixed(value, size: 4)
    }

    private mutating func fixed<T: FixedWidthInteger>(_ value: T, size: Int) {
        pad(to: size)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func setUInt32(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for i in 0..<4 { bytes[offset + i] = raw[i] }
        }
    }

    private mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            uint32(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
        bytes.append(0)
    }

    private mutating func signature(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            if utf8.count > 255 { failed = true }
            bytes.append(UInt8(truncatingIfNeeded: utf8.count))
            bytes.append(contentsOf: utf8)
        }
        bytes.append(0)
    }
}
