import CSQLite
import Glibc

/// A failed SQLite call: what was attempted, SQLite's result code and extended result code, its
/// message, and the errno of the system call behind an I/O-type failure (0 when none or unknown).
public enum SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `sqlite3_open_v2` failed for the file at `path`.
    case open(path: String, code: Int32, extendedCode: Int32, message: String, systemErrno: Int32)
    /// Preparing or running `sql` failed.
    case statement(sql: String, code: Int32, extendedCode: Int32, message: String, systemErrno: Int32)
    /// A checkpoint of the write-ahead log failed.
    case checkpoint(code: Int32, extendedCode: Int32, message: String, systemErrno: Int32)

    /// The primary result code (`SQLITE_IOERR`, `SQLITE_CORRUPT`, …).
    public var code: Int32 {
        switch self {
        case .open(_, let code, _, _, _), .statement(_, let code, _, _, _), .checkpoint(let code, _, _, _): code
        }
    }

    /// The extended result code (`SQLITE_IOERR_FSYNC`, …).
    public var extendedCode: Int32 {
        switch self {
        case .open(_, _, let code, _, _), .statement(_, _, let code, _, _), .checkpoint(_, let code, _, _): code
        }
    }

    /// SQLite's message (`sqlite3_errmsg`).
    public var message: String {
        switch self {
        case .open(_, _, _, let message, _), .statement(_, _, _, let message, _), .checkpoint(_, _, let message, _): message
        }
    }

    /// The errno behind an I/O-type failure, 0 when none is known.
    public var systemErrno: Int32 {
        switch self {
        case .open(_, _, _, _, let errno), .statement(_, _, _, _, let errno), .checkpoint(_, _, _, let errno): errno
        }
    }

    /// Whether the file is no database or is damaged (`SQLITE_NOTADB`, `SQLITE_CORRUPT`).
    public var isCorruption: Bool {
        code == SQLITE_NOTADB || code == SQLITE_CORRUPT
    }

    /// Whether a sync of the log or the database failed (`SQLITE_IOERR_FSYNC`, `SQLITE_IOERR_DIR_FSYNC`).
    public var isFailedSync: Bool {
        extendedCode == SQLITE_IOERR | (4 << 8) || extendedCode == SQLITE_IOERR | (5 << 8)
    }

    /// "disk I/O error (SQLite result code 778)", with the errno's text when one is known.
    public var description: String {
        let errnoText = systemErrno == 0 ? "" : ": " + SQLiteError.describe(errno: systemErrno)
        return "\(message)\(errnoText) (SQLite result code \(extendedCode))"
    }

    /// `strerror` and the errno's name: "Input/output error (EIO)".
    public static func describe(errno: Int32) -> String {
        let text = String(cString: strerror(errno))
        return names[errno].map { "\(text) (\($0))" } ?? "\(text) (errno \(errno))"
    }

    private static let names: [Int32: String] = [
        EIO: "EIO", EROFS: "EROFS", ENOSPC: "ENOSPC", EDQUOT: "EDQUOT", EACCES: "EACCES", EPERM: "EPERM",
        ENOENT: "ENOENT", ENOMEM: "ENOMEM", EBUSY: "EBUSY",
    ]
}

extension SQLiteError {
    /// The failure of `sql` with `code` on `connection`: its message, extended code and errno.
    static func statement(sql: String, code: Int32, connection: OpaquePointer) -> SQLiteError {
        .statement(
            sql: sql, code: code & 0xff, extendedCode: sqlite3_extended_errcode(connection),
            message: String(cString: sqlite3_errmsg(connection)), systemErrno: lastErrno(connection, code: code))
    }

    /// The errno of the last failed system call on the connection's files, for an I/O-type failure
    /// (`SQLITE_IOERR`, `SQLITE_FULL`, `SQLITE_CANTOPEN`, `SQLITE_READONLY`), else 0 (a recorded
    /// errno could be an older failure's). The write-ahead log's own value comes first (a commit
    /// writes and syncs it), then the database file's, then `sqlite3_system_errno` (mostly 0 after
    /// a rollback's own system calls). Each file's value is the one SQLite's unix VFS stored when a
    /// call on it failed (`SQLITE_FCNTL_LAST_ERRNO`).
    static func lastErrno(_ connection: OpaquePointer, code: Int32) -> Int32 {
        switch code & 0xff {
        case SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY: break
        default: return 0
        }
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
}
