import Dispatch
import Foundation
import TaskThreads

/// Batches writes: whatever is enqueued before a transaction starts goes into it, so N concurrent
/// callers cost about two transactions, not N. A committed batch is *written* at once (its
/// effects may run) and handed to the ``LogSyncer``, which makes it durable (its replies follow).
///
/// A batch that carries a delivery is first recorded in the ``DeliveryJournal`` (one `write`), which
/// counts as written: its effects, the delivery among them, run before SQLite's transaction.
///
/// Commits run with synchronous SQLite calls where the ``CommitScheduler`` puts them: by default on
/// one private serial dispatch queue (a blocking write never occupies a thread of Swift's
/// cooperative pool); the daemon has them run on its bus thread once that thread has dispatched
/// the calls it read, so a write needs no thread hand-off at all (see ``schedule(on:)``).
final class GroupCommitter: Sendable {
    /// Commits a batch in one transaction and returns one result per item, in order; the sequence
    /// number of the batch's journal record, if it has one, is stored in the same transaction.
    typealias CommitBatch = @Sendable ([[StoreChange]], _ journaled: UInt64?) -> [Result<Void, any Error>]

    private struct State {
        var queue: [Item] = []
        var draining = false
        var isClosed = false
        var batches = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var scheduler: CommitScheduler?
    }

    private struct Item {
        var changes: [StoreChange]
        var commit: PendingCommit
        var carriesDelivery: Bool
        /// Its journal record, when it was recorded as it was submitted.
        var journaled: UInt64?
    }

    private let state = LockedValue(State())
    private let commitBatch: CommitBatch
    private let commitQueue = DispatchQueue(label: "deeplinker.store.commit", qos: .userInitiated)
    /// Test hook called on the commit queue with each batch's size before it is committed.
    private let beforeBatch: (@Sendable (Int) -> Void)?
    /// Makes written batches durable.
    private let syncer: LogSyncer
    /// Records batches that carry a delivery ahead of their transaction; nil: never.
    private let journal: DeliveryJournal?
    /// Test hook called before the transaction of a batch the journal recorded (its effects ran).
    private let beforeRecordedTransaction: (@Sendable () -> Void)?

    init(
        beforeBatch: (@Sendable (Int) -> Void)? = nil, syncer: LogSyncer, journal: DeliveryJournal? = nil,
        beforeRecordedTransaction: (@Sendable () -> Void)? = nil, commitBatch: @escaping CommitBatch
    ) {
        self.beforeRecordedTransaction = beforeRecordedTransaction
        self.beforeBatch = beforeBatch
        self.syncer = syncer
        self.journal = journal
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

    /// Queues `changes` behind everything queued before and starts draining if idle. A write that
    /// carries a delivery goes through the journal, so its effects need not wait for SQLite:
    /// ``DeliveryRecording/atOnce`` records it here when nothing waits before it.
    func submit(_ changes: [StoreChange], recording: DeliveryRecording = .none) -> PendingCommit {
        let carriesDelivery = recording != .none
        let commit = PendingCommit()
        enum Next { case refuse, join, drain(CommitScheduler), recordFirst(CommitScheduler) }
        let next: Next = state.withLock { state in
            if state.isClosed { return .refuse }
            state.queue.append(Item(changes: changes, commit: commit, carriesDelivery: carriesDelivery))
            if state.draining { return .join }
            // Not draining means nothing was queued: this item is `queue[0]` until the drain runs.
            state.draining = true
            let scheduler = state.scheduler ?? { [commitQueue] drain in commitQueue.async(execute: drain) }
            return recording == .atOnce && journal != nil ? .recordFirst(scheduler) : .drain(scheduler)
        }
        switch next {
        case .refuse: commit.resolve(.failure(StoreError.closed))
        case .join: break
        case .drain(let scheduler): scheduler { self.drain() }
        case .recordFirst(let scheduler):
            // Nothing waits before it and no drain runs (so the journal is ours): recorded now, it
            // is written, and its delivery goes out from the caller's own `apply`, ahead of the
            // rest of its method and of the transaction.
            if let sequence = journal?.append(changes) {
                state.withLock { $0.queue[0].journaled = sequence }
                commit.markWritten()
            }
            scheduler { self.drain() }
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
            let (batch, idle) = state.withLock { state -> ([Item], [CheckedContinuation<Void, Never>]) in
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
            let changes = batch.map(\.changes)
            // Only the first item can have been recorded as it was submitted (``submit``).
            var journaled = batch[0].journaled
            let unrecorded = journaled == nil ? batch[...] : batch.dropFirst()
            if let journal, unrecorded.contains(where: \.carriesDelivery), let sequence = journal.append(unrecorded.flatMap(\.changes)) {
                journaled = sequence
                // Recorded where a restart finds it: the effects run now, the delivery goes out.
                for item in unrecorded { item.commit.markWritten() }
            }
            beforeBatch?(batch.count)
            if journaled != nil { beforeRecordedTransaction?() }
            let results = commitBatch(changes, journaled)
            state.withLock { $0.batches += 1 }
            if journaled != nil, results.allSatisfy({ if case .success = $0 { true } else { false } }) {
                journal?.allApplied()
            }
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
