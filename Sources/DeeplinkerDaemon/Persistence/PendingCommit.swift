import TaskThreads

/// The promise of one enqueued write, in two steps. **Written**: its transaction is committed, so
/// readers and a daemon restarted after a crash find it (the WAL frames are in the page cache);
/// what the write causes (signals, deliveries) may go out from here. **Durable**: the WAL is
/// fsynced, so it also survives a power loss; ``wait()`` and ``whenResolved(_:)`` wait for this,
/// and replies promise it. A failed commit fails both; a failed fsync fails only the second.
///
/// The store's committer settles both steps on its one owner (the daemon's bus thread), in order,
/// and a written step's callbacks run before the durable step is settled; callbacks run on that
/// owner. Resolved exactly once per step; any number of waiters.
public final class PendingCommit: Sendable {
    fileprivate typealias Callback = @Sendable (Result<Void, any Error>) -> Void

    private struct State {
        var written: Result<Void, any Error>?
        var result: Result<Void, any Error>?
        var waiters: [CheckedContinuation<Void, any Error>] = []
        var callbacks: [Callback] = []
        var writtenCallbacks: [Callback] = []
    }

    private let state = LockedValue(State())

    init() {}

    /// An already committed promise (nothing to write, or refused before the committer).
    static func resolved(_ outcome: Result<Void, any Error>) -> PendingCommit {
        let commit = PendingCommit()
        commit.resolve(outcome)
        return commit
    }

    /// An already committed promise (nothing to write).
    static func committed() -> PendingCommit {
        resolved(.success(()))
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

    /// Runs `body` with the durable outcome once it is known (at once if it already is), on the
    /// thread that resolves the commit, in the order they were registered: cheaper than a task per
    /// waiter on the reply path.
    public func whenResolved(_ body: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        when(\.result, queue: \.callbacks, body)
    }

    /// Runs `body` once the transaction is committed or has failed (at once if it already has), on
    /// the thread that committed it, in registration order and before any durable callback.
    public func whenWritten(_ body: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        when(\.written, queue: \.writtenCallbacks, body)
    }

    /// Runs `body` with the step's outcome at once if it is known, else queues it on `callbacks`.
    private func when(
        _ step: KeyPath<State, Result<Void, any Error>?>, queue callbacks: WritableKeyPath<State, [Callback]>,
        _ body: @escaping Callback
    ) {
        let ready: Result<Void, any Error>? = state.withLock { state in
            if let outcome = state[keyPath: step] { return outcome }
            state[keyPath: callbacks].append(body)
            return nil
        }
        if let ready { body(ready) }
    }

    /// Whether the durable outcome is known yet.
    public var isResolved: Bool {
        state.withLock { $0.result != nil }
    }

    /// Whether the transaction's outcome is known yet.
    public var isWritten: Bool {
        state.withLock { $0.written != nil }
    }

    /// The transaction's outcome, once known.
    public var writtenOutcome: Result<Void, any Error>? {
        state.withLock { $0.written }
    }

    /// Settles the first step: the transaction is committed, not yet fsynced; runs its callbacks.
    func markWritten() {
        let callbacks: [Callback] = state.withLock { state in
            guard state.written == nil else { return [] }
            state.written = .success(())
            defer { state.writtenCallbacks = [] }
            return state.writtenCallbacks
        }
        for callback in callbacks { callback(.success(())) }
    }

    /// Settles the promise (and its first step, if still open, with the same outcome, whose
    /// callbacks run first) and wakes the waiters; later calls are ignored.
    func resolve(_ outcome: Result<Void, any Error>) {
        let taken = state.withLock { state -> (written: [Callback], waiters: [CheckedContinuation<Void, any Error>], callbacks: [Callback])? in
            guard state.result == nil else { return nil }
            var written: [Callback] = []
            if state.written == nil {
                state.written = outcome
                written = state.writtenCallbacks
                state.writtenCallbacks = []
            }
            state.result = outcome
            defer { (state.waiters, state.callbacks) = ([], []) }
            return (written, state.waiters, state.callbacks)
        }
        guard let taken else { return }
        for callback in taken.written { callback(outcome) }
        for waiter in taken.waiters { waiter.resume(with: outcome) }
        for callback in taken.callbacks { callback(outcome) }
    }
}
