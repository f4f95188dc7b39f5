import Foundation
import GRDB
import GRDBSQLite

/// A SQLite error with the operating system's errno behind it. SQLite reports every failed
/// `write(2)`, `fsync(2)` or `open(2)` as "disk I/O error" (`SQLITE_IOERR_*`) whatever the cause, so
/// the errno is what tells an I/O error (`EIO`) from a read-only file system (`EROFS`) in a
/// `StorageFailed` message.
struct SystemErrorContext: Error {
    let error: DatabaseError
    let errno: Int32

    /// `error` with the errno SQLite recorded for `db` if it is an I/O-type failure with one;
    /// otherwise `error` unchanged (the recorded errno could be an older failure's).
    static func adding(to error: any Error, db: Database) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        switch error.resultCode {
        case .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_CANTOPEN, .SQLITE_READONLY:
            let errno = lastErrno(db.sqliteConnection)
            return errno == 0 ? error : SystemErrorContext(error: error, errno: errno)
        default:
            return error
        }
    }

    /// The errno of the last failed system call on the connection's files: the WAL (where a
    /// commit writes and fsyncs), then the database file, then `sqlite3_system_errno` (which reads
    /// the thread's `errno` only after the rollback's own system calls, so it is mostly 0 here).
    /// Each file's value is the one SQLite's unix VFS stored when a call on it failed.
    static func lastErrno(_ connection: OpaquePointer?) -> Int32 {
        var value: Int32 = 0
        var journal: UnsafeMutablePointer<sqlite3_file>?
        if sqlite3_file_control(connection, "main", SQLITE_FCNTL_JOURNAL_POINTER, &journal) == SQLITE_OK,
            let journal, let control = journal.pointee.pMethods?.pointee.xFileControl,
            control(journal, SQLITE_FCNTL_LAST_ERRNO, &value) == SQLITE_OK, value != 0
        {
            return value
        }
        if sqlite3_file_control(connection, "main", SQLITE_FCNTL_LAST_ERRNO, &value) == SQLITE_OK, value != 0 {
            return value
        }
        return sqlite3_system_errno(connection)
    }

    /// "Input/output error (EIO)", "Read-only file system (EROFS)", …
    var systemDescription: String {
        Self.describe(errno: errno)
    }

    /// `strerror` and the errno's name: "Input/output error (EIO)".
    static func describe(errno: Int32) -> String {
        let text = String(cString: strerror(errno))
        return names[errno].map { "\(text) (\($0))" } ?? "\(text) (errno \(errno))"
    }

    private static let names: [Int32: String] = [
        EIO: "EIO", EROFS: "EROFS", ENOSPC: "ENOSPC", EDQUOT: "EDQUOT", EACCES: "EACCES", EPERM: "EPERM",
        ENOENT: "ENOENT", ENOMEM: "ENOMEM", EBUSY: "EBUSY",
    ]
}
