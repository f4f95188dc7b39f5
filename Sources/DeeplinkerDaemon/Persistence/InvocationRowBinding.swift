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
        let route = invocation.route
        bind(raw, 1, invocation.id)
        bind(raw, 2, invocation.appID)
        bind(raw, 3, invocation.source.rawValue)
        bind(raw, 4, invocation.status.rawValue)
        bind(raw, 5, invocation.detail)
        sqlite3_bind_int64(raw, 6, invocation.receivedAt)
        sqlite3_bind_int64(raw, 7, invocation.updatedAt)
        bind(raw, 8, route?.target)
        bind(raw, 9, route?.source.rawValue)
        bind(raw, 10, route.map { SQLiteInvocationStore.encodeJSON($0.parameters) })
        bind(raw, 11, invocation.launchKind)
        bind(raw, 12, invocation.dedupeKey)
        bind(raw, 13, SQLiteInvocationStore.encodeJSON(invocation.platformData))
        sqlite3_bind_int64(raw, 14, Int64(invocation.attempts))
        sqlite3_bind_int64(raw, 15, invocation.redelivery ? 1 : 0)
        sqlite3_bind_int64(raw, 16, Int64(invocation.revision))
        let code = sqlite3_step(raw)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                sql: statement.sql)
        }
        return Int(sqlite3_changes(db.sqliteConnection))
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
