import FoundationEssentials
import Glibc
import Logging

extension SQLiteInvocationStore {
    /// Opens the store in `directory`; a database that is corrupt, unreadable as SQLite, or from a
    /// newer schema is renamed `<name>.corrupt-<UTC timestamp>` (with its `-wal`/`-shm`) and an empty
    /// one is created, so the daemon starts instead of failing in a restart loop. Other failures
    /// (the directory, permissions, a lock held elsewhere) still throw: renaming would not help.
    public static func openSettingAsideUnusable(
        directory: String, historyLimit: Int = 10_000, now: Date = Date(), logger: Logger = Logger(label: "deeplinker.store")
    ) throws -> (store: SQLiteInvocationStore, quarantined: QuarantinedDatabase?) {
        do {
            return (try SQLiteInvocationStore(directory: directory, historyLimit: historyLimit, logger: logger), nil)
        } catch let error as StoreError {
            let path: String
            switch error {
            case .corrupt(let p, _), .unknownSchema(let p, _, _): path = p
            default: throw error
            }
            let renamed = try quarantine(path: path, now: now, original: error)
            let store = try SQLiteInvocationStore(directory: directory, historyLimit: historyLimit, logger: logger)
            return (store, QuarantinedDatabase(originalPath: path, renamedPath: renamed, reason: Self.reason(error)))
        }
    }

    /// Renames `path` and its `-wal`/`-shm`/`-deliveries` to `<path>.corrupt-<timestamp>[-n]` (`-wal`/`-shm` after
    /// that, so SQLite tools open the set together); throws `original` if the database cannot be moved.
    static func quarantine(path: String, now: Date, original: StoreError) throws -> String {
        let stem = path + ".corrupt-" + utcStamp(now)
        var target = stem
        var attempt = 1
        while FileManager.default.fileExists(atPath: target) || FileManager.default.fileExists(atPath: target + "-wal") {
            attempt += 1
            target = stem + "-\(attempt)"
        }
        // The WAL first: were the main file moved alone, a fresh database would replay its old WAL.
        // A v4 delivery journal too: its numbers count against the old database's `journal_state`.
        for suffix in ["-wal", "-shm", V4DeliveryJournal.suffix, ""] where FileManager.default.fileExists(atPath: path + suffix) {
            guard rename(path + suffix, target + suffix) == 0 else {
                throw StoreError.cannotOpen(
                    path: path, reason: "\(original); renaming it aside failed: " + String(cString: strerror(errno)))
            }
        }
        return target
    }

    /// `YYYYMMDDTHHMMSSZ` in UTC: sorts by time and holds no character a shell or file manager minds.
    static func utcStamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(parts.tm_year + 1900, 4) + padded(parts.tm_mon + 1, 2) + padded(parts.tm_mday, 2) + "T"
            + padded(parts.tm_hour, 2) + padded(parts.tm_min, 2) + padded(parts.tm_sec, 2) + "Z"
    }

    /// The reason part of an open failure, without the path (the log line names it).
    private static func reason(_ error: StoreError) -> String {
        switch error {
        case .corrupt(_, let reason): "corrupt: \(reason)"
        case .unknownSchema(_, let version, let known): "schema version \(version) is newer than the \(known) this daemon knows"
        default: "\(error)"
        }
    }
}
