/// Why the store cannot be opened or used; the description names the path and what to do.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The state directory does not exist and cannot be created.
    case cannotCreateDirectory(path: String, reason: String)
    /// The state directory path exists but is not a directory.
    case notADirectory(path: String)
    /// The database file exists but is not a valid SQLite database or is damaged.
    case corrupt(path: String, reason: String)
    /// SQLite could not open or prepare the database.
    case cannotOpen(path: String, reason: String)
    /// A write transaction failed (disk full, I/O error, read-only file system, still locked after
    /// the busy timeout) and was rolled back: nothing of it was stored.
    case writeFailed(path: String, reason: String)
    /// A committed write could not be made durable (the write-ahead log's `fdatasync` failed): other
    /// readers saw it, a power loss may take it, so nothing of it was acknowledged.
    case syncFailed(path: String, reason: String)
    /// The database was written by a newer daemon (its schema version is beyond the one known here).
    case unknownSchema(path: String, version: Int, known: Int)
    /// The store was closed.
    case closed

    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason):
            "cannot create state directory '\(path)': \(reason)"
        case .notADirectory(let path):
            "state directory '\(path)' exists but is not a directory"
        case .corrupt(let path, let reason):
            "database '\(path)' is corrupt (\(reason)); move it aside to start with an empty state"
        case .cannotOpen(let path, let reason):
            "cannot open database '\(path)': \(reason)"
        case .writeFailed(let path, let reason):
            "cannot write database '\(path)': \(reason)"
        case .syncFailed(let path, let reason):
            "cannot make the write to '\(path)' durable: \(reason)"
        case .unknownSchema(let path, let version, let known):
            "database '\(path)' has schema version \(version), newer than the \(known) this daemon knows"
        case .closed:
            "the invocation store is closed"
        }
    }
}
