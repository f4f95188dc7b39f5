import DeeplinkerCore
import SQLite

/// Runs one of the invocation upsert's statements with the row's 16 values bound by index, no
/// array of values made per row (the upsert is on every durable `OpenURL`'s path).
enum InvocationRowBinding {
    /// Binds `invocation` to `statement` as `?1`…`?16` in ``SQLiteInvocationStore/invocationColumns``
    /// order, runs it to the end and returns the number of rows it changed.
    static func run(_ statement: SQLiteStatement, _ invocation: Invocation) throws(SQLiteError) -> Int {
        defer { statement.reset() }
        forEachColumn(of: invocation, text: { statement.bind($0, $1) }, integer: { statement.bind($0, $1) })
        return try statement.run()
    }

    /// The row's values, `?1`…`?16` in ``SQLiteInvocationStore/invocationColumns`` order: the one
    /// place an invocation is mapped to its columns.
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
}
