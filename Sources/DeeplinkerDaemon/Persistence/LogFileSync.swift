import Glibc
import Logging
import SQLite

/// Syncs the database's write-ahead log file, opened by path so that it can be `fdatasync`ed apart
/// from the commit: with `synchronous = OFF` SQLite's commit writes the WAL frames without syncing
/// them. It only syncs the file; SQLite writes it.
///
/// SQLite keeps writing the one `-wal` file as long as a connection is open; the descriptor is
/// still checked against the path before every sync (its device and inode), and a file that was
/// replaced is reopened and logged as a warning, so a stale descriptor can never sync the wrong
/// file unnoticed. Used from one thread at a time (the store's sync thread).
final class LogFileSync: @unchecked Sendable {
    /// The `-wal` file's path.
    let path: String
    private var fd: Int32 = -1
    private var identity: (device: UInt, inode: UInt)?
    /// How many times a file other than the first opened one had to be opened (tests, diagnostics).
    private(set) var replacedCount = 0
    private let logger: Logger

    /// Syncs the log of the database at `databasePath`; failures and a replaced file are logged to `logger`.
    init(databasePath: String, logger: Logger = Logger(label: "deeplinker.store")) {
        path = databasePath + "-wal"
        self.logger = logger
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Makes everything written to the log so far durable. Throws ``StoreError/syncFailed(path:reason:)``
    /// naming the log and the errno (the store logs it and stops acknowledging, SPEC §9).
    func sync() throws(StoreError) {
        try syncNow()
    }

    private func syncNow() throws(StoreError) {
        var current = stat()
        guard stat(path, &current) == 0 else {
            // While a connection is open SQLite never removes its log: a missing one means the
            // state directory was tampered with, and nothing written can be promised durable.
            throw .syncFailed(path: path, reason: "the write-ahead log is gone: " + Self.errnoText())
        }
        let found = (device: UInt(current.st_dev), inode: UInt(current.st_ino))
        if fd < 0 || identity.map({ $0 != found }) ?? true {
            if let identity, identity != found {
                replacedCount += 1
                logger.warning("the write-ahead log \(path) was replaced (inode \(identity.inode) → \(found.inode)); syncing the new file")
            }
            if fd >= 0 { Glibc.close(fd) }
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw .syncFailed(path: path, reason: "open: " + Self.errnoText()) }
            var opened = stat()
            fstat(fd, &opened)
            identity = (device: UInt(opened.st_dev), inode: UInt(opened.st_ino))
        }
        guard fdatasync(fd) == 0 else {
            throw .syncFailed(path: path, reason: "fdatasync: " + Self.errnoText())
        }
    }

    /// Closes the descriptor (the store is closing).
    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
        identity = nil
    }

    /// `strerror` and the errno's name, e.g. "Input/output error (EIO)", as the store's other
    /// messages say it.
    private static func errnoText() -> String {
        SQLiteError.describe(errno: errno)
    }
}
