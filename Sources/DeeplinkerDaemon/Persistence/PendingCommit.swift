import Foundation

/// The durability promise of one enqueued write: ``wait()`` returns once it is committed (or throws
/// the error that prevented it). Resolved exactly once by the store; any number of waiters.
public final class PendingCommit: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Void, any Error>?
    private var waiters: [CheckedContinuation<Void, any Error>] = []
    private var callbacks: [@Sendable (Result<Void, any Error>) -> Void] = []

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
            let ready: Result<Void, any Error>? = lock.withLock {
                if let result { return result }
                waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Runs `body` with the outcome once it is known (at once if it already is), on the thread that
    /// resolves the commit, in the order they were registered: cheaper than a task per waiter on
    /// the reply path.
    public func whenResolved(_ body: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        let ready: Result<Void, any Error>? = lock.withLock {
            if let result { return result }
            callbacks.append(body)
            return nil
        }
        if let ready { body(ready) }
    }

    /// Whether the outcome is known yet.
    public var isResolved: Bool {
        lock.withLock { result != nil }
    }

    /// Settles the promise and wakes the waiters; later calls are ignored.
    func resolve(_ outcome: Result<Void, any Error>) {
        let (toWake, toCall) = lock.withLock { () -> ([CheckedContinuation<Void, any Error>], [@Sendable (Result<Void, any Error>) -> Void]) in
            guard result == nil else { return ([], []) }
            result = outcome
            defer {
                waiters = []
                callbacks = []
            }
            return (waiters, callbacks)
        }
        for waiter in toWake { waiter.resume(with: outcome) }
        for callback in toCall { callback(outcome) }
    }
}
