import DeeplinkerCore
import Foundation
import GRDB
import GRDBSQLite
import TaskThreads
import Logging

/// The durable ``InvocationStore``: one SQLite file in the state directory, WAL mode, schema via
/// `DatabaseMigrator`, writes group-committed by a ``GroupCommitter``; SQLite's own log and no
/// other file of ours (SPEC §6).
///
/// A commit runs with `synchronous = OFF` and `wal_autocheckpoint = 0`: it writes the WAL and
/// neither syncs nor checkpoints, so it is *written* (a restarted daemon finds it after `kill -9`;
/// SPEC §6's "recorded") and its effects, a delivery among them, go out at once. The ``LogSyncer``
/// then `fdatasync`s the WAL on its own thread; only then is the write *durable* (it survives a
/// power loss too) and the caller answered. The same thread checkpoints the log once it has grown
/// (``WALGauge``, ``WALCheckpointer``), so the thread that commits (the daemon's bus thread) never
/// waits for the disk. A failed sync is fatal (SPEC §9): ``whenSyncFails(_:)``.
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
    let log: LogFileSync
    let gauge: WALGauge
    let checkpointer: WALCheckpointer
    /// How many records of a v4 delivery journal the open applied (tests, diagnostics).
    public let upgradedFromJournal: Int
    private let writeState = SQLiteWriteState()

    /// Opens (creating if needed, mode 0700) `directory` and the database in it.
    /// Throws ``StoreError`` naming the path if the directory or the file is unusable or corrupt.
    /// `logger` gets the sync thread's failures and warnings.
    public convenience init(directory: String, historyLimit: Int = 10_000, logger: Logger = Logger(label: "deeplinker.store")) throws {
        try self.init(directory: directory, historyLimit: historyLimit, beforeBatch: nil, logger: logger)
    }

    /// The designated initialiser; `beforeBatch` lets tests hold a batch to observe group commit,
    /// `beforeSync` the log's sync.
    init(
        directory: String, historyLimit: Int, beforeBatch: (@Sendable (Int) -> Void)?,
        beforeSync: (@Sendable (Int) -> Void)? = nil, logger: Logger = Logger(label: "deeplinker.store")
    ) throws {
        try Self.prepareDirectory(directory)
        let path = (directory as NSString).appendingPathComponent(Self.fileName)
        self.path = path
        self.historyLimit = max(1, historyLimit)
        // Only new directory entries need the directory fsynced (a restart creates none).
        let creates = access(path, F_OK) != 0
        let state = writeState
        let log = LogFileSync(databasePath: path, logger: logger)
        self.log = log
        (pool, upgradedFromJournal) = try Self.openPool(path: path, state: state, log: log, logger: logger)
        let pool = self.pool
        let limit = self.historyLimit
        let gauge = WALGauge()
        self.gauge = gauge
        pool.writeWithoutTransaction { db in gauge.install(on: db.sqliteConnection) }
        let checkpointer = WALCheckpointer(databasePath: path)
        self.checkpointer = checkpointer
        // Weak: the committer owns the syncer whose callbacks reach it, and a strong reference
        // would be a cycle that keeps the whole store alive after it closed.
        let committerBox = LockedValue(WeakCommitter())
        syncer = LogSyncer(
            beforeSync: beforeSync,
            afterSync: { (othersWaiting: Bool) throws(StoreError) in
                // Between syncs when the log is quiet; under steady writes once it is half-way to
                // the hold, rather than hold the writes later.
                guard gauge.checkpointDue, !othersWaiting || gauge.frameCount >= WALGauge.holdFrames / 2 else { return }
                defer { committerBox.withLock { $0.committer }?.resume() }
                do throws(StoreError) {
                    let (frames, _) = try checkpointer.checkpoint()
                    gauge.checkpointed(throughFrames: max(frames, gauge.frameCount))
                } catch {
                    gauge.checkpointed(throughFrames: gauge.frameCount)
                    if case StoreError.syncFailed = error { throw error }
                    logger.warning("\(error.description); the log keeps it, the next checkpoint tries again")
                }
            },
            atEnd: { checkpointer.close() }
        ) { () throws(StoreError) in try log.sync() }
        committer = GroupCommitter(beforeBatch: beforeBatch, syncer: syncer, gauge: gauge) { batch in
            Self.commit(batch, pool: pool, state: state, historyLimit: limit).map { result in
                result.mapError { StoreError.writeFailed(path: path, reason: Self.describe($0)) }
            }
        }
        committerBox.withLock { $0.committer = committer }
        committer.whenSyncFails { logger.error("\($0); nothing more is acknowledged, and the daemon stops (SPEC §9)") }
        if creates { try Self.syncDirectory(directory) }
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
        // Nothing to store is nothing to promise: no transaction, no sync (start-up's recovery
        // often has no change, and its sync would be on the way to the first reply).
        guard !changes.isEmpty else { return .committed() }
        return committer.submit(changes)
    }

    public func scheduleCommits(on executor: CommitExecutor) {
        committer.schedule(on: executor)
    }

    public func whenSyncFails(_ body: @escaping @Sendable (any Error) -> Void) {
        committer.whenSyncFails(body)
    }

    public func close() async throws {
        guard !committer.closed else { return }
        await committer.close()
        // After a failed sync nothing may be checkpointed: the log's pages in memory may not be
        // what is on disk. The daemon exits without closing; SQLite's recovery keeps what is there.
        if committer.failedWith != nil { return }
        // The checkpoint a closing connection makes syncs by its own flags: the writer's are OFF.
        // TRUNCATE, so the next start finds no log to replay.
        var checkpointError: (any Error)?
        // Detached: GRDB's async access throws CancellationError in a cancelled task, and a daemon
        // stopped by cancelling its task must close as cleanly as one stopped by a signal.
        let pool = self.pool
        let checkpoint = Task.detached {
            try await pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
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

    /// Opens the pool, checks integrity, applies a v4 delivery journal (``V4DeliveryJournal``) and
    /// migrates, then sets the writer to `synchronous = OFF` and `wal_autocheckpoint = 0` (the
    /// ``LogSyncer`` syncs and checkpoints); every failure is mapped to a ``StoreError`` naming `path`.
    private static func openPool(path: String, state: SQLiteWriteState, log: LogFileSync, logger: Logger) throws -> (DatabasePool, upgraded: Int) {
        var configuration = Configuration()
        configuration.label = "deeplinker"
        configuration.busyMode = .timeout(5)
        // Checked before SQLite opens it: on a failed open SQLite deletes the -wal and -shm, which
        // must be kept beside a database that is set aside.
        if let problem = headerProblem(path: path) { throw StoreError.corrupt(path: path, reason: problem) }
        markLogNonEmpty(path + "-wal")
        do {
            let pool = try DatabasePool(path: path, configuration: configuration)
            // On the writer, which start-up needs anyway: no reader is opened before the first reply.
            let (version, superseded, check) = try pool.writeWithoutTransaction { db in
                (
                    try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0, try migrator.hasBeenSuperseded(db),
                    try String.fetchOne(db, sql: "PRAGMA quick_check"))
            }
            guard version <= schemaVersion, !superseded else {
                throw StoreError.unknownSchema(path: path, version: version, known: schemaVersion)
            }
            guard check == "ok" else {
                throw StoreError.corrupt(path: path, reason: check ?? "quick_check returned nothing")
            }
            let upgraded = try V4DeliveryJournal.upgrade(databasePath: path, pool: pool, state: state, sync: { try log.sync() }, logger: logger)
            if version < schemaVersion {
                try migrator.migrate(pool)
                try log.sync()
            }
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = OFF; PRAGMA wal_autocheckpoint = 0")
                // The log outlives the last connection (its close checkpoints, then keeps the file):
                // a start that had to create it again would sync the directory for it.
                var persist: Int32 = 1
                sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
            }
            return (pool, upgraded)
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

    /// Gives an existing, empty log (a clean close truncates it) 32 zero bytes, a header SQLite reads
    /// as "no frames": GRDB writes a transaction of its own at open into an empty or missing log
    /// (its issue 102), which costs syncs on the way to the first reply.
    private static func markLogNonEmpty(_ walPath: String) {
        var info = stat()
        guard stat(walPath, &info) == 0, info.st_size == 0 else { return }
        let fd = open(walPath, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { _ = Foundation.close(fd) }
        let zeros = [UInt8](repeating: 0, count: 32)
        _ = zeros.withUnsafeBytes { pwrite(fd, $0.baseAddress, 32, 0) }
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

/// The sync thread's way to the committer, which owns it (``SQLiteInvocationStore/init``).
private struct WeakCommitter {
    weak var committer: GroupCommitter?
}
