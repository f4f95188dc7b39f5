import TaskThreads

/// Bookkeeping used inside write transactions (which the writer connection's lock serialises),
/// behind a mutex so its thread-safety is checked rather than assumed.
final class SQLiteWriteState: Sendable {
    private let count = LockedValue<Int?>(nil)

    /// The number of invocation rows, or `nil` when unknown (recounted before the next trim).
    var invocationCount: Int? {
        get { count.withLock { $0 } }
        set { count.withLock { $0 = newValue } }
    }
}
