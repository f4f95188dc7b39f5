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

    public func enqueue(_ changes: [StoreChange], recording: DeliveryRecording) -> PendingCommit {
        enqueue(changes)
    }

    /// Enqueues the persistent part of engine effects (status and app-state changes), keeping their
    /// order; one with a delivery is recorded ahead of its transaction as `recording` says
    /// (``enqueue(_:recording:)``).
    public func enqueue(effects: [EngineEffect], recording: DeliveryRecording = .atOnce) -> PendingCommit {
        let delivers = effects.contains { if case .deliver = $0 { true } else { false } }
        return enqueue(effects.compactMap(StoreChange.init(effect:)), recording: delivers ? recording : .none)
    }
}
