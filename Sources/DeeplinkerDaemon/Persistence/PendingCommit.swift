import TaskThreads

/// The durability promise of one enqueued write: ``wait()`` returns once it is committed (or throws
/// the error that prevented it). Resolved exactly once by the store; any number of waiters.
public final class PendingCommit: Sendable {
    private struct State {
        var result: Result<Void, any Error>?
        var waiters: [CheckedContinuation<Void, any Error>] = []
        var callbacks: [@Sendable (Result<Void, any Error>) -> Void] = []
    }

    private let state = LockedValue(State())

    init() {}

    /// An already committed promise (the memory store, or nothing to write).
    static func committed() -> PendingCommit {
        let commit = PendingCommit()
        commit.resolve(.success(()))
        return commit
    }

    /// Waits until the write is durable. Not cancellable: the write happens regardless.
    public func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let ready: Result<Void, any Error>? = state.withLock { state in
                if let result = state.result { return result }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Runs `body` with the outcome once it is known (at once if it already is), on the thread that
    /// resolves the commit, in the order they were registered: cheaper than a task per waiter on
    /// the reply path.
    public func whenResolved(_ body: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let ready: Result<Void, any Error>? = state.withLock { state in
            if let result = state.result { return result }
            state.callbacks.append(body)
            return nil
        }
        if let ready { body(ready) }
    }

    /// Whether the outcome is known yet.
    public var isResolved: Bool {
        state.withLock { $0.result != nil }
    }

    /// Settles the promise and wakes the waiters; later calls are ignored.
    func resolve(_ outcome: Result<Void, any Error>) {
        let (toWake, toCall) = state.withLock { state -> ([CheckedContinuation<Void, any Error>], [@Sendable (Result<Void, any Error>) -> Void]) in
            guard state.result == nil else { return ([], []) }
            state.result = outcome
            defer {
                state.waiters = []
                state.callbacks = []
            }
            return (state.waiters, state.callbacks)
        }
        for waiter in toWake { waiter.resume(with: outcome) }
        for callback in toCall { callback(outcome) }
    }
}
