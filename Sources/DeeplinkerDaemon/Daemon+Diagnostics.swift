/// Read-only figures for benchmarks and diagnostics.
extension Daemon {
    /// SQLite write transactions committed since start (group commit makes this fewer than the
    /// writes); nil when the store is not SQLite.
    public var storeTransactionCount: Int? {
        (store as? SQLiteInvocationStore)?.transactionCount
    }
}
