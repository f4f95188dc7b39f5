import SQLite
import Synchronization

/// How full the write-ahead log is, shared by the thread that commits (which only writes the log)
/// and the sync thread (which checkpoints it).
///
/// The writer has `wal_autocheckpoint = 0` (and its commit hook, ``committed(frames:)``, in its place): SQLite's own checkpoint would run inside a commit, on
/// the bus thread, and sync the database file there. Instead the sync thread checkpoints after its
/// sync once the log holds ``checkpointFrames`` (PASSIVE, as sqlite.org/wal.html advises for an
/// application whose main thread must never block on a sync), and the next write starts the log
/// over. Under writes that never pause, each checkpoint can overlap a commit and the log never
/// gets back to its start; so past ``holdFrames`` the committer holds its queue until a checkpoint
/// has covered the log. The log file then stays below ``boundBytes`` (unless a reader holds an old
/// snapshot through whole checkpoints, which the daemon's short reads never do).
final class WALGauge: Sendable {
    /// A checkpoint runs after the sync once the log holds this many frames (4 KiB pages): 1 MiB.
    static let checkpointFrames = 256
    /// Past this many frames (4 MiB) commits wait for a checkpoint.
    static let holdFrames = 1_024
    /// The bound on the `-wal` file, 8.05 MiB: the hold limit plus one batch of up to 1,024 frames
    /// (a batch of 200 invocations writes about 450), in frames of 24 + 4,096 bytes after a 32-byte
    /// header.
    static let boundBytes = 32 + (holdFrames + 1_024) * (24 + 4_096)

    /// Frames in the log after the last commit (SQLite's WAL hook).
    private let frames = Atomic<Int>(0)
    /// The log's size in frames when the last checkpoint attempt ended.
    private let checkpointedAt = Atomic<Int>(0)

    init() {}

    /// The WAL hook's frame count, after each commit on the writer.
    func committed(frames count: Int) {
        frames.store(count, ordering: .relaxed)
    }

    var frameCount: Int { frames.load(ordering: .relaxed) }

    /// Whether a checkpoint is due (after the next sync).
    var checkpointDue: Bool {
        let count = frameCount
        return count >= Self.checkpointFrames && count > checkpointedAt.load(ordering: .relaxed)
    }

    /// Whether commits must wait: past the hold limit, with no checkpoint attempt since.
    var mustWait: Bool {
        let count = frameCount
        return count >= Self.holdFrames && count > checkpointedAt.load(ordering: .relaxed)
    }

    func checkpointed(throughFrames count: Int) {
        checkpointedAt.store(count, ordering: .relaxed)
    }
}

/// The sync thread's own connection to the database, for PASSIVE checkpoints: its sync flags
/// (SQLite's default, FULL) make a checkpoint sync the log before copying it and the database file
/// after, while the writer runs with `synchronous = OFF` (nothing it does syncs). Opened at the
/// first checkpoint, so a start-up never pays for it. Used by one thread at a time.
final class WALCheckpointer: @unchecked Sendable {
    let databasePath: String
    private var connection: SQLiteDatabase?
    /// Checkpoints run so far and how many covered the whole log (tests, diagnostics).
    private(set) var runs = 0
    private(set) var complete = 0

    init(databasePath: String) {
        self.databasePath = databasePath
    }

    /// One PASSIVE checkpoint; returns the log's size in frames as it began (what it covered when
    /// complete). A failed sync throws ``StoreError/syncFailed(path:reason:)`` (fatal, SPEC §9); any
    /// other failure (a refused write) is thrown as ``StoreError/writeFailed(path:reason:)``: the log
    /// keeps everything and the next checkpoint tries again.
    func checkpoint() throws(StoreError) -> (frames: Int, complete: Bool) {
        do throws(SQLiteError) {
            let connection: SQLiteDatabase
            if let open = self.connection { connection = open } else { connection = try open() }
            runs += 1
            let (log, done) = try connection.checkpoint(.passive)
            if log == done { complete += 1 }
            return (log, log == done)
        } catch {
            let reason = "checkpoint: \(error.description)"
            if error.isFailedSync { throw .syncFailed(path: databasePath, reason: reason) }
            throw .writeFailed(path: databasePath, reason: reason)
        }
    }

    private func open() throws(SQLiteError) -> SQLiteDatabase {
        let connection = try SQLiteDatabase(path: databasePath, mode: .readWrite)
        // A first read opens the connection's view of the log, which a checkpoint needs.
        _ = try connection.integer("SELECT 1 FROM sqlite_master LIMIT 1")
        self.connection = connection
        return connection
    }

    func close() {
        connection?.close()
        connection = nil
    }
}
