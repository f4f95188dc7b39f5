/// Bookkeeping used only inside write transactions, which GRDB serialises on its writer queue.
final class SQLiteWriteState: @unchecked Sendable {
    /// The number of invocation rows, or `nil` when unknown (recounted before the next trim).
    var invocationCount: Int?
}
