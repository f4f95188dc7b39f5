import DeeplinkerCore
import FoundationEssentials
import Glibc
import Logging
import SQLite
import TaskThreads

/// The durable ``InvocationStore``: one SQLite file in the state directory, WAL mode, schema
/// versioned by `PRAGMA user_version`, writes group-committed by a ``GroupCommitter``; SQLite's
/// own log and no other file of ours (SPEC §6). SQLite is reached through the project's own
/// binding (`SQLite`: ``SQLiteDatabase``), on two connections: the writer, which commits and
/// answers the de-duplication look-up (``firstInvocation(appID:dedupeKey:since:)``) on the thread
/// that commits, and a reader for the asynchronous reads, opened at the first read after a commit.
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

    /// The writer connection: commits, the de-duplication look-up, and reads until the first commit.
    let writer: LockedValue<SQLiteDatabase>
    /// The reader connection of the asynchronous reads once something was committed.
    let reader = LockedValue<SQLiteDatabase?>(nil)
    let committer: GroupCommitter
    let syncer: LogSyncer
    let log: LogFileSync
    let gauge: WALGauge
    let checkpointer: WALCheckpointer
    /// How many records of a v4 delivery journal the open applied (tests, diagnostics).
    public let upgradedFromJournal: Int
    /// The last daemon did not close the database (its write-ahead log was not empty at open):
    /// SQLite's recovery replayed it; ``checkIntegrity(logger:completion:)`` may look further.
    public let stoppedUncleanly: Bool
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
        let path = directory.hasSuffix("/") ? directory + Self.fileName : directory + "/" + Self.fileName
        self.path = path
        self.historyLimit = max(1, historyLimit)
        // Only new directory entries need the directory fsynced (a restart creates none).
        let creates = access(path, F_OK) != 0
        // A clean close checkpoints and truncates the log; anything in it is what a crash left.
        var walInfo = stat()
        stoppedUncleanly = stat(path + "-wal", &walInfo) == 0 && walInfo.st_size > 0
        let state = writeState
        let log = LogFileSync(databasePath: path, logger: logger)
        self.log = log
        let gauge = WALGauge()
        self.gauge = gauge
        let (database, upgraded) = try Self.openWriter(path: path, state: state, log: log, gauge: gauge, logger: logger)
        upgradedFromJournal = upgraded
        let writer = LockedValue(database)
        self.writer = writer
        let limit = self.historyLimit
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
            writer.withLock { db in
                Self.commit(batch, db: db, state: state, historyLimit: limit).map { result in
                    result.mapError { StoreError.writeFailed(path: path, reason: Self.describe($0)) }
                }
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
        reader.withLock { reader in
            reader?.close()
            reader = nil
        }
        // After a failed sync nothing may be checkpointed: the log's pages in memory may not be
        // what is on disk. The daemon exits without closing; SQLite's recovery keeps what is there.
        if committer.failedWith != nil { return }
        // The checkpoint a closing connection makes syncs by its own flags: the writer's are OFF.
        // TRUNCATE, so the next start finds no log to replay.
        let checkpointError: SQLiteError? = writer.withLock { db in
            defer { db.close() }
            do throws(SQLiteError) {
                try db.execute("PRAGMA synchronous = NORMAL")
                try db.checkpoint(.truncate)
                return nil
            } catch {
                // A failed checkpoint (a full disk) loses nothing: the WAL stays and is replayed.
                return error
            }
        }
        log.close()
        if let checkpointError { throw StoreError.writeFailed(path: path, reason: checkpointError.description) }
    }

    /// Creates the state directory if missing (mode 0700), or checks that the existing path is a directory.
    private static func prepareDirectory(_ directory: String) throws {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw StoreError.notADirectory(path: directory) }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError.cannotCreateDirectory(path: directory, reason: Self.describe(error))
        }
    }

    /// Opens the writer, applies a v4 delivery journal (``V4DeliveryJournal``) and migrates, then
    /// sets it to `synchronous = OFF` and `wal_autocheckpoint = 0` (the ``LogSyncer`` syncs the log
    /// and checkpoints it) and installs the ``WALGauge``'s hook. Every failure is mapped to a
    /// ``StoreError`` naming `path`.
    private static func openWriter(
        path: String, state: SQLiteWriteState, log: LogFileSync, gauge: WALGauge, logger: Logger
    ) throws -> (SQLiteDatabase, upgraded: Int) {
        // Checked before SQLite opens it: on a failed open SQLite deletes the -wal and -shm, which
        // must be kept beside a database that is set aside.
        if let problem = headerProblem(path: path) { throw StoreError.corrupt(path: path, reason: problem) }
        do {
            let db = try SQLiteDatabase(path: path)
            // WAL is recorded in the file: on an existing database this only reads its header.
            guard try db.text("PRAGMA journal_mode = WAL") == "wal" else {
                throw StoreError.cannotOpen(path: path, reason: "the database cannot use a write-ahead log")
            }
            let version = Int(try db.integer("PRAGMA user_version") ?? 0)
            guard version <= schemaVersion else {
                throw StoreError.unknownSchema(path: path, version: version, known: schemaVersion)
            }
            // No integrity pass over the whole file here: it would read every page on the way to
            // the first reply. SQLite's WAL recovery protects the file; after an unclean stop the
            // daemon checks it once serving (``checkIntegrity(logger:completion:)``).
            let upgraded = try V4DeliveryJournal.upgrade(databasePath: path, db: db, state: state, sync: { try log.sync() }, logger: logger)
            if version < schemaVersion {
                try migrate(db, from: version)
                try log.sync()
            }
            try db.execute("PRAGMA synchronous = OFF; PRAGMA wal_autocheckpoint = 0")
            // The log outlives the last connection (its close checkpoints, then keeps the file):
            // a start that had to create it again would sync the directory for it.
            db.persistWAL(true)
            db.onCommit { frames in gauge.committed(frames: frames) }
            return (db, upgraded)
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError {
            throw error.isCorruption
                ? StoreError.corrupt(path: path, reason: error.message) : StoreError.cannotOpen(path: path, reason: describe(error))
        } catch {
            throw StoreError.cannotOpen(path: path, reason: describe(error))
        }
    }

    /// Why the existing, non-empty file at `path` is no SQLite database (its 16-byte magic header is
    /// missing), or nil.
    private static func headerProblem(path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var head = [UInt8](repeating: 0, count: 16)
        let count = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, 16) }
        guard count > 0 else { return nil }
        return count == 16 && head == Array("SQLite format 3\0".utf8) ? nil : "file is not a database (no SQLite header)"
    }

    /// fsyncs the directory so the database and WAL files' directory entries survive power loss.
    private static func syncDirectory(_ directory: String) throws {
        let fd = open(directory, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else {
            throw StoreError.cannotOpen(path: directory, reason: String(cString: strerror(errno)))
        }
        defer { Glibc.close(fd) }
        guard fsync(fd) == 0 else {
            throw StoreError.cannotOpen(path: directory, reason: "fsync: " + String(cString: strerror(errno)))
        }
    }

    /// A short human-readable form of an underlying error: for SQLite's, its message, the errno's
    /// text and the extended result code, e.g. "disk I/O error: Read-only file system (EROFS)
    /// (SQLite result code 778)".
    static func describe(_ error: any Error) -> String {
        if let error = error as? SQLiteError { return error.description }
        if let error = error as? StoreError { return error.description }
        return "\(error)"
    }
}

/// The sync thread's way to the committer, which owns it (``SQLiteInvocationStore/init``).
private struct WeakCommitter {
    weak var committer: GroupCommitter?
}
