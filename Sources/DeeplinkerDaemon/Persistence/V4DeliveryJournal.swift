import DeeplinkerCore
import FoundationEssentials
import Glibc
import Logging
import SQLite

/// The delivery journal schema v4 kept beside the database (`<database>-deliveries`), read once
/// to upgrade to v5, which has none: its records that a crash left out of SQLite (numbered above
/// `journal_state.applied`) are applied, then the table is dropped and the file removed.
///
/// On disk: `[UInt32 payload length][UInt64 FNV-1a of the payload][payload]`, little-endian; the
/// payload is `[UInt64 sequence][UInt32 change count]` and each change as a tag (1 invocation, its
/// 16 row columns; 2 app state) and its values, each typed (0 null, 1 text, 2 integer). A record
/// cut short or failing its checksum ends the readable part (a write the crash interrupted).
enum V4DeliveryJournal {
    /// The journal's path: the database's, with this suffix.
    static let suffix = "-deliveries"

    /// One record: the changes of one transaction, numbered.
    struct Record: Equatable {
        var sequence: UInt64
        var changes: [StoreChange]
    }

    /// Applies what the journal beside `path` holds and the database lacks, in the transaction that
    /// drops `journal_state`; then syncs and removes the file. Returns how many records it applied.
    /// A journal beside a database that has no `journal_state` (already upgraded; the removal was
    /// lost) is only removed.
    static func upgrade(databasePath path: String, db: SQLiteDatabase, state: SQLiteWriteState, sync: () throws -> Void, logger: Logger) throws -> Int {
        let file = path + suffix
        guard let data = FileManager.default.contents(atPath: file) else { return 0 }
        let (records, valid) = decodeAll([UInt8](data))
        if valid < data.count {
            logger.notice("\(file): ignored \(data.count - valid) bytes after the last intact record (a write cut short)")
        }
        var applied = 0
        try db.transaction {
            guard try db.tableExists("journal_state") else { return }
            let done = UInt64(max(0, try db.integer("SELECT applied FROM journal_state WHERE id = 0") ?? 0))
            for record in records where record.sequence > done {
                for change in record.changes { try SQLiteInvocationStore.apply(change, db: db, state: state) }
                applied += 1
            }
            try db.execute("DROP TABLE journal_state")
        }
        try sync()
        guard unlink(file) == 0 else {
            throw StoreError.cannotOpen(path: file, reason: "unlink: " + SQLiteError.describe(errno: errno))
        }
        if applied > 0 { logger.notice("applied \(applied) delivery journal record(s) of \(file) that a crash left out of \(path)") }
        return applied
    }

    /// The intact records at the start of `bytes`, in order, and where the first bad one began.
    static func decodeAll(_ bytes: [UInt8]) -> (records: [Record], validBytes: Int) {
        var records: [Record] = []
        var offset = 0
        while bytes.count - offset >= 12 {
            let length = Int(read(UInt32.self, bytes, at: offset))
            let sum = read(UInt64.self, bytes, at: offset + 4)
            let start = offset + 12
            guard length <= bytes.count - start else { break }
            let payload = bytes[start..<(start + length)]
            guard checksum(payload) == sum, let record = try? decode(payload) else { break }
            records.append(record)
            offset = start + length
        }
        return (records, offset)
    }

    private static func decode(_ payload: ArraySlice<UInt8>) throws -> Record {
        var input = Reader(bytes: payload)
        let sequence = try input.u64()
        let count = try input.u32()
        var changes: [StoreChange] = []
        for _ in 0..<count {
            switch try input.byte() {
            case 1:
                var columns: [Value] = []
                for _ in 0..<16 { columns.append(try input.value()) }
                let invocation = try SQLiteInvocationStore.invocation(
                    text: { columns[Int($0) - 1].text }, integer: { columns[Int($0) - 1].integer ?? 0 })
                changes.append(.invocation(invocation))
            case 2:
                let appID = try input.text() ?? ""
                guard let state = AppState(rawValue: try input.text() ?? "") else { throw Reader.Bad() }
                let owner = try input.text()
                changes.append(.appState(AppStateRecord(appID: appID, state: state, owner: owner, updatedAt: try input.integer())))
            default:
                throw Reader.Bad()
            }
        }
        guard input.isAtEnd else { throw Reader.Bad() }
        return Record(sequence: sequence, changes: changes)
    }

    /// A value as v4 wrote it: NULL, text or an integer.
    private enum Value {
        case null, text(String), integer(Int64)

        var text: String? { if case .text(let text) = self { text } else { nil } }
        var integer: Int64? { if case .integer(let integer) = self { integer } else { nil } }
    }

    /// FNV-1a, 64 bits, as v4 wrote it.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }

    private static func read<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int) -> T {
        bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
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

        mutating func byte() throws -> UInt8 { try take(1).first! }
        mutating func u32() throws -> UInt32 { try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        mutating func u64() throws -> UInt64 { try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) } }

        /// A value as written.
        mutating func value() throws -> Value {
            switch try byte() {
            case 0: return .null
            case 1: return .text(String(decoding: try take(Int(try u32())), as: UTF8.self))
            case 2: return .integer(Int64(bitPattern: try u64()))
            default: throw Bad()
            }
        }

        mutating func text() throws -> String? {
            switch try value() {
            case .null: return nil
            case .text(let text): return text
            case .integer: throw Bad()
            }
        }

        mutating func integer() throws -> Int64 {
            guard case .integer(let value) = try value() else { throw Bad() }
            return value
        }
    }
}
