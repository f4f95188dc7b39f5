import DeeplinkerCore

extension InvocationStore {
    /// Commits at once (the memory store): nothing to schedule.
    public func scheduleCommits(on scheduler: @escaping CommitScheduler) {}

    /// A store whose commits are durable at once never has a sync running.
    public var syncRunningFor: Duration? { nil }

    /// Enqueues `changes` and waits until they are durably committed.
    ///
    /// Only use it where ordering against other writes does not matter; from the engine's actor prefer
    /// `enqueue` (synchronous, keeps order) followed by `wait()` after leaving the critical section.
    public func write(_ changes: [StoreChange]) async throws {
        try await enqueue(changes).wait()
    }

    public func whenSyncFails(_ body: @escaping @Sendable (any Error) -> Void) {}

    /// Enqueues the persistent part of engine effects (status and app-state changes), keeping their order.
    public func enqueue(effects: [EngineEffect]) -> PendingCommit {
        enqueue(effects.compactMap(StoreChange.init(effect:)))
    }
}
