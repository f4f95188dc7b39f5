import DeeplinkerCore

extension InvocationStore {
    /// Enqueues `changes` and waits until they are durably committed.
    ///
    /// Only use it where ordering against other writes does not matter; from the engine's actor prefer
    /// `enqueue` (synchronous, keeps order) followed by `wait()` after leaving the critical section.
    public func write(_ changes: [StoreChange]) async throws {
        try await enqueue(changes).wait()
    }

    /// Enqueues the persistent part of engine effects (status and app-state changes), keeping their order.
    public func enqueue(effects: [EngineEffect]) -> PendingCommit {
        enqueue(effects.compactMap(StoreChange.init(effect:)))
    }
}
