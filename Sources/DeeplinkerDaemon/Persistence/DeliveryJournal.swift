import DeeplinkerCore
import Glibc
import Logging

/// An append-only file beside the database (`<database>-deliveries`) that records a transaction
/// carrying a delivery before SQLite commits it, so the delivery can go out first.
///
/// SPEC §6 wants `delivering` recorded before the send, so that a daemon that dies before the
/// app's answer delivers again after restart. One `write` of a record puts it in the page cache,
/// where a daemon killed with `-9` finds it, at a fraction of a transaction's cost; SQLite commits
/// the same changes right after the send, with the record's sequence number in `journal_state`.
/// At open, records with a higher number than the stored one are replayed into SQLite: those are
/// the ones a crash cut off between the record and the transaction. Nothing is acknowledged on the
/// journal's strength: replies still wait for SQLite's transaction and its sync.
///
/// Used by one thread at a time (the committer's drain, and the store's open and close).
final class DeliveryJournal: @unchecked Sendable {
    /// The journal's path: the database's, with this suffix.
    static let suffix = "-deliveries"
    /// Past this size the file is emptied once every record in it is applied.
    static let truncateAbove = 64 * 1024

    let path: String
    private let logger: Logger
    private var fd: Int32
    private var size = 0
    /// The sequence number the next record gets.
    private(set) var nextSequence: UInt64 = 1
    /// Records written since opening (tests, diagnostics).
    private(set) var recordCount = 0

    /// Opens (creating, mode 0600) the journal of the database at `databasePath`.
    init(databasePath: String, logger: Logger) throws(StoreError) {
        path = databasePath + Self.suffix
        self.logger = logger
        fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .cannotOpen(path: path, reason: SystemErrorContext.describe(errno: errno)) }
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// The intact records in the file, oldest first; a torn tail (a crash in the middle of a
    /// write) is logged and left out.
    func readRecords() throws(StoreError) -> [JournalRecord] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var offset: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotOpen(path: path, reason: "read: " + SystemErrorContext.describe(errno: errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            offset += off_t(count)
        }
        let (records, valid) = JournalRecord.decodeAll(bytes)
        if valid < bytes.count {
            logger.notice("\(path): ignored \(bytes.count - valid) bytes after the last intact record (a write cut short)")
        }
        size = bytes.count
        return records
    }

    /// Numbers the next record after `sequence` (the highest applied or found at open).
    func continueAfter(_ sequence: UInt64) {
        nextSequence = max(nextSequence, sequence + 1)
    }

    /// Writes `changes` as the next record; returns its sequence number, or nil when they have no
    /// journal form or the write failed (logged): the caller then commits before anything is sent.
    func append(_ changes: [StoreChange]) -> UInt64? {
        let record = JournalRecord(sequence: nextSequence, changes: changes)
        guard let bytes = record.encoded() else { return nil }
        let written = bytes.withUnsafeBytes { raw -> Int in
            while true {
                let n = write(fd, raw.baseAddress, raw.count)
                if n < 0 && errno == EINTR { continue }
                return n
            }
        }
        guard written == bytes.count else {
            let reason = written < 0 ? SystemErrorContext.describe(errno: errno) : "short write (\(written) of \(bytes.count) bytes)"
            logger.warning("\(path): \(reason); this delivery waits for its transaction")
            // A partial record fails its checksum at open and ends the readable part: cut it off.
            if written > 0 { truncate() }
            return nil
        }
        size += bytes.count
        recordCount += 1
        nextSequence += 1
        return record.sequence
    }

    /// Called once every record written so far is committed to SQLite: empties a file grown past
    /// ``truncateAbove``. Emptying is never needed for correctness (applied records are skipped).
    func allApplied() {
        if size > Self.truncateAbove { truncate() }
    }

    /// Empties the file (its records are all applied).
    func truncate() {
        if ftruncate(fd, 0) == 0 {
            size = 0
        } else {
            logger.warning("\(path): could not empty it: \(SystemErrorContext.describe(errno: errno))")
        }
    }

    /// The file's size in bytes as last written (tests, diagnostics).
    var byteCount: Int { size }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
