import Dispatch
import Foundation
import TaskThreads

/// Batches writes: whatever is enqueued before a transaction starts goes into it, so N concurrent
/// callers cost about two transactions, not N. A committed batch is *written* at once (its
/// effects may run) and handed to the ``LogSyncer``, which makes it durable (its replies follow).
///
/// Commits run with synchronous SQLite calls where the ``CommitScheduler`` puts them: by default on
/// one private serial dispatch queue (a blocking write never occupies a thread of Swift's
/// cooperative pool); the daemon has them run on its bus thread once that thread has dispatched
/// the calls it read, so a write needs no thread hand-off at all (see ``schedule(on:)``).
final class GroupCommitter: Sendable {
    /// Commits a batch in one transaction and returns one result per item, in order.
    typealias CommitBatch = @Sendable ([[StoreChange]]) -> [Result<Void, any Error>]

    private struct State {
        var queue: [(changes: [StoreChange], commit: PendingCommit)] = []
        var draining = false
        var isClosed = false
        var batches = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var scheduler: CommitScheduler?
    }

    private let state = LockedValue(State())
    private let commitBatch: CommitBatch
    private let commitQueue = DispatchQueue(label: "deeplinker.store.commit", qos: .userInitiated)
    /// Test hook called on the commit queue with each batch's size before it is committed.
    private let beforeBatch: (@Sendable (Int) -> Void)?
    /// Makes written batches durable.
    private let syncer: LogSyncer

    init(beforeBatch: (@Sendable (Int) -> Void)? = nil, syncer: LogSyncer, commitBatch: @escaping CommitBatch) {
        self.beforeBatch = beforeBatch
        self.syncer = syncer
        self.commitBatch = commitBatch
    }

    /// Runs the commits that start from now on through `scheduler` instead of the private queue.
    /// It must run each drain after the call that scheduled it returns, one at a time.
    func schedule(on scheduler: @escaping CommitScheduler) {
        state.withLock { $0.scheduler = scheduler }
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
        enum Next { case refuse, join, drain(CommitScheduler) }
        let next: Next = state.withLock { state in
            if state.isClosed { return .refuse }
            state.queue.append((changes, commit))
            if state.draining { return .join }
            state.draining = true
            return .drain(state.scheduler ?? { [commitQueue] drain in commitQueue.async(execute: drain) })
        }
        switch next {
        case .refuse: commit.resolve(.failure(StoreError.closed))
        case .join: break
        case .drain(let scheduler): scheduler { self.drain() }
        }
        return commit
    }

    /// Refuses new writes and waits until queued ones are committed and synced.
    func close() async {
        await closeCommits()
        await syncer.close()
    }

    private func closeCommits() async {
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
            var written: [PendingCommit] = []
            for (index, item) in batch.enumerated() {
                let result = index < results.count ? results[index] : .failure(StoreError.closed)
                if case .success = result {
                    // Its effects run now, here; the sync thread settles it once the log is on disk.
                    item.commit.markWritten()
                    written.append(item.commit)
                } else {
                    item.commit.resolve(result)
                }
            }
            syncer.submit(written)
        }
    }
}
