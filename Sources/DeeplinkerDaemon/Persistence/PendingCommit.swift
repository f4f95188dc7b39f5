import Foundation

/// The durability promise of one enqueued write: ``wait()`` returns once it is committed (or throws
/// the error that prevented it). Resolved exactly once by the store; any number of waiters.
public final class PendingCommit: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Void, any Error>?
    private var waiters: [CheckedContinuation<Void, any Error>] = []

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

    /// Whether the outcome is known yet.
    public var isResolved: Bool {
        lock.withLock { result != nil }
    }

    /// Settles the promise and wakes the waiters; later calls are ignored.
    func resolve(_ outcome: Result<Void, any Error>) {
        let toWake: [CheckedContinuation<Void, any Error>] = lock.withLock {
            guard result == nil else { return [] }
            result = outcome
            defer { waiters = [] }
            return waiters
        }
        for waiter in toWake { waiter.resume(with: outcome) }
    }
}
