import DeeplinkerCore
import GRDB

/// One entry of the ``DeliveryJournal``: the changes of one transaction, numbered, in a compact
/// binary form that is checked when read back.
///
/// On disk: `[UInt32 payload length][UInt64 FNV-1a of the payload][payload]`, little-endian; the
/// payload is `[UInt64 sequence][UInt32 change count]` and each change as a tag and its values,
/// each value typed (null, text, integer). Only the changes the engine makes are written
/// (``StoreChange/invocation(_:)`` as its 16 row columns, ``StoreChange/appState(_:)``); a batch
/// with any other change is not journaled.
struct JournalRecord: Equatable {
    /// Increases by one per record over the life of the database (``DeliveryJournal``).
    var sequence: UInt64
    var changes: [StoreChange]

    /// Bytes before the payload: its length and its checksum.
    static let headerSize = 12

    private enum Tag: UInt8 {
        case invocation = 1
        case appState = 2
    }

    /// How each value is written: its kind first, so a reader needs no column types.
    private enum ValueTag: UInt8 {
        case null = 0
        case text = 1
        case integer = 2
    }

    /// The record's bytes, or nil when a change has no journal form.
    func encoded() -> [UInt8]? {
        var out = Writer()
        out.bytes.reserveCapacity(512)
        out.bytes.append(contentsOf: repeatElement(0, count: Self.headerSize))
        out.u64(sequence)
        out.u32(UInt32(changes.count))
        for change in changes {
            switch change {
            case .invocation(let invocation):
                out.bytes.append(Tag.invocation.rawValue)
                InvocationRowBinding.forEachColumn(of: invocation, text: { out.text($1) }, integer: { out.integer($1) })
            case .appState(let record):
                out.bytes.append(Tag.appState.rawValue)
                out.text(record.appID)
                out.text(record.state.rawValue)
                out.text(record.owner)
                out.integer(record.updatedAt)
            case .shortcuts, .notificationPosted, .notificationClosed, .domainCheck:
                return nil
            }
        }
        let payloadCount = out.bytes.count - Self.headerSize
        let checksum = Self.checksum(out.bytes[Self.headerSize...])
        out.bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt32(payloadCount).littleEndian, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: checksum.littleEndian, toByteOffset: 4, as: UInt64.self)
        }
        return out.bytes
    }

    /// Reads the records at the start of `bytes`, in order, up to the first one that is cut short
    /// or fails its checksum (a write the crash interrupted): returns them and where that one began.
    static func decodeAll(_ bytes: [UInt8]) -> (records: [JournalRecord], validBytes: Int) {
        var records: [JournalRecord] = []
        var offset = 0
        while bytes.count - offset >= headerSize {
            let length = Int(read(UInt32.self, bytes, at: offset))
            let sum = read(UInt64.self, bytes, at: offset + 4)
            let start = offset + headerSize
            guard length <= bytes.count - start else { break }
            let payload = bytes[start..<(start + length)]
            guard checksum(payload) == sum, let record = try? decode(payload) else { break }
            records.append(record)
            offset = start + length
        }
        return (records, offset)
    }

    private static func decode(_ payload: ArraySlice<UInt8>) throws -> JournalRecord {
        var input = Reader(bytes: payload)
        let sequence = try input.u64()
        let count = try input.u32()
        var changes: [StoreChange] = []
        for _ in 0..<count {
            switch Tag(rawValue: try input.byte()) {
            case .invocation:
                var columns: [String: (any DatabaseValueConvertible)?] = [:]
                for column in invocationColumnNames { columns[column] = try input.value() }
                changes.append(.invocation(try SQLiteInvocationStore.invocation(from: Row(columns))))
            case .appState:
                let appID = try input.text() ?? ""
                guard let state = AppState(rawValue: try input.text() ?? "") else { throw Reader.Bad() }
                let owner = try input.text()
                changes.append(.appState(AppStateRecord(appID: appID, state: state, owner: owner, updatedAt: try input.integer())))
            case nil:
                throw Reader.Bad()
            }
        }
        guard input.isAtEnd else { throw Reader.Bad() }
        return JournalRecord(sequence: sequence, changes: changes)
    }

    private static let invocationColumnNames = SQLiteInvocationStore.invocationColumns
        .split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// FNV-1a, 64 bits: enough to tell a torn or stale tail from a record (nothing adversarial
    /// writes the state directory).
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    private static func read<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int) -> T {
        bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func u32(_ value: UInt32) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func u64(_ value: UInt64) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        /// The integer tag, then the value.
        mutating func integer(_ value: Int64) {
            bytes.append(ValueTag.integer.rawValue)
            u64(UInt64(bitPattern: value))
        }

        /// The null tag, or the text tag, then the UTF-8 length and bytes.
        mutating func text(_ value: String?) {
            guard var value else {
                bytes.append(ValueTag.null.rawValue)
                return
            }
            bytes.append(ValueTag.text.rawValue)
            value.withUTF8 { utf8 in
                u32(UInt32(utf8.count))
                bytes.append(contentsOf: utf8)
            }
        }
    }

    private struct Reader {
        struct Bad: Error {}

        let bytes: ArraySlice<UInt8>
        var offset: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            offset = bytes.startIndex
        }

        var isAtEnd: Bool { offset == bytes.endIndex }

        mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
            guard count >= 0, bytes.endIndex - offset >= count else { throw Bad() }
            defer { offset += count }
            return bytes[offset..<(offset + count)]
        }

        mutating func byte() throws -> UInt8 {
            try take(1).first!
        }

        mutating func u32() throws -> UInt32 {
            try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func u64() throws -> UInt64 {
            try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }

        /// A value as written: nil, a `String` or an `Int64`.
        mutating func value() throws -> (any DatabaseValueConvertible)? {
            switch ValueTag(rawValue: try byte()) {
            case .null: return nil
            case .text: return String(decoding: try take(Int(try u32())), as: UTF8.self)
            case .integer: return Int64(bitPattern: try u64())
            case nil: throw Bad()
            }
        }

        mutating func text() throws -> String? {
            let value = try value()
            guard value == nil || value is String else { throw Bad() }
            return value as? String
        }

        mutating func integer() throws -> Int64 {
            guard let value = try value() as? Int64 else { throw Bad() }
            return value
        }
    }
}
