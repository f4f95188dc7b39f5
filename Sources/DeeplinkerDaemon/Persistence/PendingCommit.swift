import TaskThreads

/// The promise of one enqueued write, in two steps. **Written**: its transaction is committed, so
/// readers and a daemon restarted after a crash find it (the WAL frames are in the page cache);
/// what the write causes (signals, deliveries) may go out from here. **Durable**: the WAL is
/// fsynced, so it also survives a power loss; ``wait()`` and ``whenResolved(_:)`` wait for this,
/// and replies promise it. A failed commit fails both; a failed fsync fails only the second.
/// Resolved exactly once per step by the store; any number of waiters.
///
/// The store starts the sync before it runs the written step's callbacks (``beginWritten()``,
/// then ``finishWritten(_:)``), so the disk works while the effects go out; a durable outcome that
/// arrives in between is held until they have run, so a reply never overtakes its signals.
public final class PendingCommit: Sendable {
    fileprivate typealias Callback = @Sendable (Result<Void, any Error>) -> Void

    private struct State {
        var written: Result<Void, any Error>?
        var result: Result<Void, any Error>?
        var waiters: [CheckedContinuation<Void, any Error>] = []
        var callbacks: [Callback] = []
        var writtenCallbacks: [Callback] = []
        /// Between ``beginWritten()`` and ``finishWritten(_:)``: a durable outcome waits.
        var runningWritten = false
        /// Whether the durable outcome may be reported: known, and the written step's callbacks done.
        var settled: Result<Void, any Error>? { runningWritten ? nil : result }

        /// Takes the durable step's waiters and callbacks, once its outcome may be reported.
        mutating func takeSettled() -> Settled? {
            guard let outcome = settled else { return nil }
            defer { (waiters, callbacks) = ([], []) }
            return Settled(outcome: outcome, waiters: waiters, callbacks: callbacks)
        }
    }

    /// The durable outcome with those it is reported to, taken under the lock, run outside it.
    private struct Settled {
        let outcome: Result<Void, any Error>
        let waiters: [CheckedContinuation<Void, any Error>]
        let callbacks: [Callback]

        func report() {
            for waiter in waiters { waiter.resume(with: outcome) }
            for callback in callbacks { callback(outcome) }
        }
    }

    /// The written step's callbacks, taken by ``beginWritten()`` and run by ``finishWritten(_:)``.
    struct WrittenStep {
        fileprivate let callbacks: [Callback]
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
                if let settled = state.settled { return settled }
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
        when(\.settled, queue: \.callbacks, body)
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
        state.withLock { $0.settled != nil }
    }

    /// Whether the transaction's outcome is known yet.
    public var isWritten: Bool {
        state.withLock { $0.written != nil }
    }

    /// Settles the first step: the transaction is committed, not yet fsynced.
    func markWritten() {
        finishWritten(beginWritten())
    }

    /// Records the transaction as committed and takes the callbacks waiting for that, without
    /// running them: the store hands the commit to the sync first, then calls ``finishWritten(_:)``.
    func beginWritten() -> WrittenStep {
        state.withLock { state in
            guard state.written == nil else { return WrittenStep(callbacks: []) }
            state.written = .success(())
            state.runningWritten = true
            defer { state.writtenCallbacks = [] }
            return WrittenStep(callbacks: state.writtenCallbacks)
        }
    }

    /// Runs the written step's callbacks, then the durable ones if the sync ended meanwhile.
    func finishWritten(_ step: WrittenStep) {
        for callback in step.callbacks { callback(.success(())) }
        let settled = state.withLock { state -> Settled? in
            state.runningWritten = false
            return state.takeSettled()
        }
        settled?.report()
    }

    /// Settles the promise (and its first step, if still open, with the same outcome) and wakes
    /// the waiters, or leaves that to ``finishWritten(_:)`` while the written callbacks run; later
    /// calls are ignored.
    func resolve(_ outcome: Result<Void, any Error>) {
        let (written, settled) = state.withLock { state -> ([Callback], Settled?) in
            guard state.result == nil else { return ([], nil) }
            var written: [Callback] = []
            if state.written == nil {
                state.written = outcome
                written = state.writtenCallbacks
                state.writtenCallbacks = []
            }
            state.result = outcome
            return (written, state.takeSettled())
        }
        for callback in written { callback(outcome) }
        settled?.report()
    }
}
