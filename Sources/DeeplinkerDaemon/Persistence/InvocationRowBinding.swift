import DeeplinkerCore
import GRDB
import GRDBSQLite

/// Runs one of the invocation upsert's statements with the row's 16 values bound straight through
/// SQLite's C API. `perf` put GRDB's arguments path (an array of existentials turned into
/// `StatementArguments`, checked, bound as temporary bindings, observed) at about 5% of the CPU of
/// a durable `OpenURL`. The statements stay GRDB's cached ones, so GRDB prepares and finalises them.
enum InvocationRowBinding {
    /// Binds `invocation` to `statement` as `?1`…`?16` in ``SQLiteInvocationStore/invocationColumns``
    /// order, runs it to the end and returns the number of rows it changed. A failure is thrown as
    /// the `DatabaseError` GRDB would have thrown (the statement's result code and SQLite's message).
    static func run(_ statement: Statement, _ invocation: Invocation, db: Database) throws -> Int {
        let raw = statement.sqliteStatement
        defer {
            sqlite3_reset(raw)
            sqlite3_clear_bindings(raw)
        }
        forEachColumn(of: invocation, text: { bind(raw, $0, $1) }, integer: { _ = sqlite3_bind_int64(raw, $0, $1) })
        let code = sqlite3_step(raw)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                sql: statement.sql)
        }
        return Int(sqlite3_changes(db.sqliteConnection))
    }

    /// The row's values, `?1`…`?16` in ``SQLiteInvocationStore/invocationColumns`` order: the one
    /// place an invocation is mapped to its columns (the table's row, and the ``JournalRecord``'s).
    @inline(__always)
    static func forEachColumn(of invocation: Invocation, text: (Int32, String?) -> Void, integer: (Int32, Int64) -> Void) {
        let route = invocation.route
        text(1, invocation.id)
        text(2, invocation.appID)
        text(3, invocation.source.rawValue)
        text(4, invocation.status.rawValue)
        text(5, invocation.detail)
        integer(6, invocation.receivedAt)
        integer(7, invocation.updatedAt)
        text(8, route?.target)
        text(9, route?.source.rawValue)
        text(10, route.map { SQLiteInvocationStore.encodeJSON($0.parameters) })
        text(11, invocation.launchKind)
        text(12, invocation.dedupeKey)
        text(13, SQLiteInvocationStore.encodeJSON(invocation.platformData))
        integer(14, Int64(invocation.attempts))
        integer(15, invocation.redelivery ? 1 : 0)
        integer(16, Int64(invocation.revision))
    }

    /// SQLITE_TRANSIENT: SQLite takes its own copy of the text before the bind returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// Binds text (SQLite copies it) or NULL.
    private static func bind(_ statement: OpaquePointer, _ index: Int32, _ value: String?) {
        guard var text = value else {
            sqlite3_bind_null(statement, index)
            return
        }
        text.withUTF8 { bytes in
            if let base = bytes.baseAddress {
                _ = sqlite3_bind_text(statement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(bytes.count), transient)
            } else {
                _ = sqlite3_bind_text(statement, index, "", 0, transient)
            }
        }
    }
}
