/// A de-duplication key with the time its invocation arrived, kept in arrival order so expired
/// keys are pruned from the front instead of by scanning every key on each invocation.
struct RecentKey: Sendable, Hashable {
    var key: String
    var receivedAt: Int64
}
