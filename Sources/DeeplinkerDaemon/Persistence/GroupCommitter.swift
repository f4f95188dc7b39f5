import DBusKit
import Dispatch
import Foundation

/// Batches writes: whatever is enqueued while a transaction commits goes into the next one, so N
/// concurrent callers cost about two fsyncs, not N.
///
/// Commits run on one private serial dispatch queue with synchronous SQLite calls: the blocking
/// fsync never occupies a thread of Swift's cooperative pool, and a write costs only two thread
/// hand-offs (to the queue and back to the waiting caller).
final class GroupCommitter: Sendable {
    /// Commits a batch in one transaction and returns one result per item, in order.
    typealias CommitBatch = @Sendable ([[StoreChange]]) -> [Result<Void, any Error>]

    private struct State {
        var queue: [(changes: [StoreChange], commit: PendingCommit)] = []
        var draining = false
        var isClosed = false
        var batches = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedValue(State())
    private let commitBatch: CommitBatch
    private let commitQueue = DispatchQueue(label: "deeplinker.store.commit", qos: .userInitiated)
    /// Test hook called on the commit queue with each batch's size before it is committed.
    private let beforeBatch: (@Sendable (Int) -> Void)?

    init(beforeBatch: (@Sendable (Int) -> Void)? = nil, commitBatch: @escaping CommitBatch) {
        self.beforeBatch = beforeBatch
        self.commitBatch = commitBatch
    }

    /// Number of transactions committed so far (for tests and diagnostics).
    var batchCount: Int {
        state.withLock { $0.batches }
    }

    /// Whether ``close()`` was called.
    var closed: Bool {
        state.withLock { $0.isClosed }
    }

    /// Queues `changes` behind everything queued before and starts draining if idle.
    func submit(_ changes: [StoreChange]) -> PendingCommit {
        let commit = PendingCommit()
        let start: Bool? = state.withLock { state in
            if state.isClosed { return nil }
            state.queue.append((changes, commit))
            if state.draining { return false }
            state.draining = true
            return true
        }
        switch start {
        case nil: commit.resolve(.failure(StoreError.closed))
        case true?: commitQueue.async { self.drain() }
        case false?: break
        }
        return commit
    }

    /// Refuses new writes and waits until queued ones are committed.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle: Bool = state.withLock { state in
                state.isClosed = true
                if state.draining {
                    state.idleWaiters.append(continuation)
                    return false
                }
                return true
            }
            if idle { continuation.resume() }
        }
    }

    /// Commits batches until the queue is empty, then wakes anyone waiting in `close()`.
    private func drain() {
        while true {
            let (batch, idle) = state.withLock { state -> ([(changes: [StoreChange], commit: PendingCommit)], [CheckedContinuation<Void, Never>]) in
                if state.queue.isEmpty {
                    state.draining = false
                    defer { state.idleWaiters = [] }
                    return ([], state.idleWaiters)
                }
                defer { state.queue = [] }
                return (state.queue, [])
            }
            if batch.isEmpty {
                for waiter in idle { waiter.resume() }
                return
            }
            beforeBatch?(batch.count)
            let results = commitBatch(batch.map(\.changes))
            state.withLock { $0.batches += 1 }
            for (index, item) in batch.enumerated() {
                item.commit.resolve(index < results.count ? results[index] : .failure(StoreError.closed))
            }
        }
    }
}
