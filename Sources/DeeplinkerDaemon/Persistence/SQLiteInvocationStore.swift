import DeeplinkerCore
import Foundation
import GRDB
import Logging

/// The durable ``InvocationStore``: one SQLite file in the state directory, WAL mode, schema via
/// `DatabaseMigrator`, writes group-committed by a ``GroupCommitter``.
///
/// A commit runs with `synchronous = NORMAL`: it writes the WAL and does not sync it, so it is
/// *written* (a restarted daemon finds it after `kill -9`) and its effects, a delivery among them,
/// may go out at once. The ``LogSyncer`` then `fdatasync`s the WAL on its own thread; only then is
/// the write *durable* (it survives a power loss too) and the caller answered, so a reply is still
/// a promise kept, as `synchronous = FULL` made it, without the delivery waiting for the disk.
/// A write that carries a delivery does not wait for SQLite either: it is recorded in the
/// ``DeliveryJournal`` first, which a restart replays.
public final class SQLiteInvocationStore: InvocationStore {
    /// The database file name inside the state directory.
    public static let fileName = "deeplinker.sqlite"

    /// The database file's path.
    public let path: String
    /// Maximum number of retained invocations; the oldest final ones are trimmed beyond it.
    public let historyLimit: Int

    let pool: DatabasePool
    let committer: GroupCommitter
    let syncer: LogSyncer
    let log: WriteAheadLog
    let journal: DeliveryJournal
    /// How many journal records the open replayed into the database (tests, diagnostics).
    public let replayedAtOpen: Int
    private let writeState = SQLiteWriteState()

    /// Opens (creating if needed, mode 0700) `directory` and the database in it.
    /// Throws ``StoreError`` naming the path if the directory or the file is unusable or corrupt.
    /// `logger` gets the sync thread's failures and warnings.
    public convenience init(directory: String, historyLimit: Int = 10_000, logger: Logger = Logger(label: "deeplinker.store")) throws {
        try self.init(directory: directory, historyLimit: historyLimit, beforeBatch: nil, logger: logger)
    }

    /// The designated initialiser; `beforeBatch` lets tests hold a batch to observe group commit,
    /// `beforeSync` the log's sync, `beforeRecordedTransaction` the transaction of a journaled batch.
    init(
        directory: String, historyLimit: Int, beforeBatch: (@Sendable (Int) -> Void)?,
        beforeSync: (@Sendable (Int) -> Void)? = nil, beforeRecordedTransaction: (@Sendable () -> Void)? = nil,
        logger: Logger = Logger(label: "deeplinker.store")
    ) throws {
        try Self.prepareDirectory(directory)
        let path = (directory as NSString).appendingPathComponent(Self.fileName)
        self.path = path
        self.historyLimit = max(1, historyLimit)
        // Only new directory entries need the directory fsynced (a restart creates none).
        let creates = access(path, F_OK) != 0 || access(path + "-wal", F_OK) != 0
        pool = try Self.openPool(path: path)
        let pool = self.pool
        let state = writeState
        let limit = self.historyLimit
        let log = WriteAheadLog(databasePath: path, logger: logger)
        self.log = log
        let (journal, replayed) = try Self.openJournal(databasePath: path, pool: pool, state: state, log: log, logger: logger)
        self.journal = journal
        replayedAtOpen = replayed
        syncer = LogSyncer(beforeSync: beforeSync) { try log.sync() }
        committer = GroupCommitter(
            beforeBatch: beforeBatch, syncer: syncer, journal: journal, beforeRecordedTransaction: beforeRecordedTransaction
        ) { batch, journaled in
            Self.commit(batch, pool: pool, state: state, historyLimit: limit, journaled: journaled).map { result in
                result.mapError { StoreError.writeFailed(path: path, reason: Self.describe($0)) }
            }
        }
        if creates { try Self.syncDirectory(directory) }
    }

    /// Opens the delivery journal and replays into the database what a crash left only there: a
    /// transaction whose delivery was sent before SQLite committed it. The replay is synced before
    /// the journal is emptied.
    private static func openJournal(
        databasePath path: String, pool: DatabasePool, state: SQLiteWriteState, log: WriteAheadLog, logger: Logger
    ) throws -> (DeliveryJournal, replayed: Int) {
        let journal = try DeliveryJournal(databasePath: path, logger: logger)
        let records = try journal.readRecords()
        let replayed: Int
        do {
            let applied: UInt64
            (replayed, applied) = try replay(records, pool: pool, state: state)
            if replayed > 0 {
                try log.sync()
                logger.notice("replayed \(replayed) delivery journal record(s) that a crash left out of \(path)")
            }
            journal.continueAfter(max(applied, records.last?.sequence ?? 0))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.cannotOpen(path: journal.path, reason: "replay: " + describe(error))
        }
        if journal.byteCount > 0 { journal.truncate() }
        return (journal, replayed)
    }

    /// Number of write transactions committed since opening (group commit makes it < number of writes).
    public var transactionCount: Int {
        committer.batchCount
    }

    /// Number of `fdatasync`s of the write-ahead log since opening (one covers every transaction
    /// written while the one before it ran).
    public var syncCount: Int {
        syncer.syncCount
    }

    public var syncRunningFor: Duration? {
        syncer.runningFor
    }

    public func enqueue(_ changes: [StoreChange]) -> PendingCommit {
        committer.submit(changes)
    }

    public func enqueue(_ changes: [StoreChange], recording: DeliveryRecording) -> PendingCommit {
        committer.submit(changes, recording: recording)
    }

    public func scheduleCommits(on scheduler: @escaping CommitScheduler) {
        committer.schedule(on: scheduler)
    }

    public func close() async throws {
        guard !committer.closed else { return }
        await committer.close()
        // GRDB closes the writer before the readers, and the last (read-only) connection cannot
        // checkpoint, so the WAL would stay as long as it grew and the next start would replay
        // all of it. So: checkpoint and truncate, then write one page back (the same
        // user_version). The next start replays that one frame, and GRDB, finding a WAL with
        // something in it, opens without a write of its own: a first write to an empty or new WAL
        // costs two fsyncs (its header, its directory) on the way to the first reply.
        var checkpointError: (any Error)?
        // Detached: GRDB's async access throws CancellationError in a cancelled task, and a daemon
        // stopped by cancelling its task must close as cleanly as one stopped by a signal.
        let pool = self.pool
        let checkpoint = Task.detached {
            try await pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                try db.execute(sql: "PRAGMA user_version = \(Self.schemaVersion)")
            }
        }
        do {
            try await checkpoint.value
        } catch {
            // A failed checkpoint (a full disk) loses nothing: the WAL stays and is replayed.
            checkpointError = error
        }
        try pool.close()
        log.close()
        // Every record is in the database now.
        journal.truncate()
        journal.close()
        if let checkpointError { throw checkpointError }
    }

    /// Creates the state directory if missing, or checks that the existing path is a directory.
    private static func prepareDirectory(_ directory: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw StoreError.notADirectory(path: directory) }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError.cannotCreateDirectory(path: directory, reason: Self.describe(error))
        }
    }

    /// Opens the pool, with `synchronous = NORMAL` on the writer (the ``LogSyncer`` syncs the WAL),
    /// checks integrity and migrates; every failure is mapped to a ``StoreError`` naming `path`.
    private static func openPool(path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.label = "deeplinker"
        configuration.busyMode = .timeout(5)
        // Checked before SQLite opens it: on a failed open SQLite deletes the -wal and -shm, which
        // must be kept beside a database that is set aside.
        if let problem = headerProblem(path: path) { throw StoreError.corrupt(path: path, reason: problem) }
        do {
            let pool = try DatabasePool(path: path, configuration: configuration)
            // On the writer, which start-up needs anyway: no reader is opened before the first reply.
            let (version, superseded, check) = try pool.writeWithoutTransaction { db in
                // GRDB's WAL set-up picks NORMAL too; said here because the sync thread relies on it.
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                return (
                    try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0, try migrator.hasBeenSuperseded(db),
                    try String.fetchOne(db, sql: "PRAGMA quick_check"))
            }
            guard version <= schemaVersion, !superseded else {
                throw StoreError.unknownSchema(path: path, version: version, known: schemaVersion)
            }
            guard check == "ok" else {
                throw StoreError.corrupt(path: path, reason: check ?? "quick_check returned nothing")
            }
            try migrator.migrate(pool)
            return pool
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                throw StoreError.corrupt(path: path, reason: error.message ?? "\(error.resultCode)")
            default:
                throw StoreError.cannotOpen(path: path, reason: describe(error))
            }
        } catch {
            throw StoreError.cannotOpen(path: path, reason: describe(error))
        }
    }

    /// Why the existing, non-empty file at `path` is no SQLite database (its 16-byte magic header is
    /// missing), or nil.
    private static func headerProblem(path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 16), !head.isEmpty else { return nil }
        return head == Data("SQLite format 3\0".utf8) ? nil : "file is not a database (no SQLite header)"
    }

    /// fsyncs the directory so the database and WAL files' directory entries survive power loss.
    private static func syncDirectory(_ directory: String) throws {
        let fd = open(directory, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else {
            throw StoreError.cannotOpen(path: directory, reason: String(cString: strerror(errno)))
        }
        defer { _ = Foundation.close(fd) }
        guard fsync(fd) == 0 else {
            throw StoreError.cannotOpen(path: directory, reason: "fsync: " + String(cString: strerror(errno)))
        }
    }

    /// A short human-readable form of an underlying error.
    static func describe(_ error: any Error) -> String {
        if let context = error as? SystemErrorContext {
            // e.g. "disk I/O error: Read-only file system (EROFS) (SQLite result code 778)"
            let error = context.error
            return "\(error.message ?? error.description): \(context.systemDescription) (SQLite result code \(error.extendedResultCode.rawValue))"
        }
        if let error = error as? DatabaseError {
            return "\(error.message ?? error.description) (SQLite result code \(error.extendedResultCode.rawValue))"
        }
        return (error as NSError).localizedDescription
    }
}
