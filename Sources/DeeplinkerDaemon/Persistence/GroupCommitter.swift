import Dispatch
import Foundation
import TaskThreads

/// Batches writes: whatever is enqueued before a transaction starts goes into it, so N concurrent
/// callers cost about two transactions, not N. A committed batch is *written* at once (its
/// effects may run: SPEC §6's `delivering` is recorded) and handed to the ``LogSyncer``, which makes
/// it durable (its replies follow).
///
/// Commits run with synchronous SQLite calls where the ``CommitScheduler`` puts them: by default on
/// one private serial dispatch queue (a blocking write never occupies a thread of Swift's
/// cooperative pool); the daemon has them run on its bus thread once that thread has dispatched
/// the calls it read, so a write needs no thread hand-off at all (see ``schedule(on:)``). A commit
/// only writes the log (no sync, no checkpoint), so that thread never waits for the disk. While the
/// log is past its bound and not yet checkpointed (``WALGauge/mustWait``) the queue is held, not
/// drained: the sync thread's checkpoint releases it (``resume()``).
final class GroupCommitter: Sendable {
    /// Commits a batch in one transaction and returns one result per item, in order.
    typealias CommitBatch = @Sendable ([[StoreChange]]) -> [Result<Void, any Error>]

    private struct State {
        var queue: [Item] = []
        var draining = false
        /// Queued items wait for a checkpoint (the log is past its bound).
        var held = false
        var isClosed = false
        /// Set once a sync failed: every later write is refused with it (SPEC §9).
        var failure: StoreError?
        var batches = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var scheduler: CommitScheduler?
    }

    private struct Item {
        var changes: [StoreChange]
        var commit: PendingCommit
    }

    private let state = LockedValue(State())
    private let commitBatch: CommitBatch
    private let commitQueue = DispatchQueue(label: "deeplinker.store.commit", qos: .userInitiated)
    /// Test hook called on the commit queue with each batch's size before it is committed.
    private let beforeBatch: (@Sendable (Int) -> Void)?
    /// Makes written batches durable.
    private let syncer: LogSyncer
    /// How full the log is; nil: never hold (tests of the committer alone).
    private let gauge: WALGauge?

    init(
        beforeBatch: (@Sendable (Int) -> Void)? = nil, syncer: LogSyncer, gauge: WALGauge? = nil,
        commitBatch: @escaping CommitBatch
    ) {
        self.beforeBatch = beforeBatch
        self.syncer = syncer
        self.gauge = gauge
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

    /// Queues `changes` behind everything queued before and starts draining if idle. The drain runs
    /// later, where the scheduler puts it, never inside this call.
    func submit(_ changes: [StoreChange]) -> PendingCommit {
        let commit = PendingCommit()
        enum Next { case refuse(StoreError), join, drain(CommitScheduler) }
        let next: Next = state.withLock { state in
            if let failure = state.failure { return .refuse(failure) }
            if state.isClosed { return .refuse(.closed) }
            state.queue.append(Item(changes: changes, commit: commit))
            if state.draining || state.held { return .join }
            state.draining = true
            return .drain(scheduler(state))
        }
        switch next {
        case .refuse(let error): commit.resolve(.failure(error))
        case .join: break
        case .drain(let scheduler): scheduler { self.drain() }
        }
        return commit
    }

    private func scheduler(_ state: State) -> CommitScheduler {
        state.scheduler ?? { [commitQueue] drain in commitQueue.async(execute: drain) }
    }

    /// The log was checkpointed: a held queue is drained again.
    func resume() {
        let scheduler: CommitScheduler? = state.withLock { state in
            guard state.held else { return nil }
            state.held = false
            guard !state.queue.isEmpty, !state.draining else { return nil }
            state.draining = true
            return self.scheduler(state)
        }
        scheduler? { self.drain() }
    }

    /// A sync failed (SPEC §9): refuses every queued and later write with `error`.
    func fail(_ error: StoreError) {
        let refused: [Item] = state.withLock { state in
            if state.failure == nil { state.failure = error }
            // A running drain empties the queue itself and sees the failure before its next batch.
            if state.draining { return [] }
            defer { state.queue = [] }
            return state.queue
        }
        for item in refused { item.commit.resolve(.failure(error)) }
        wakeIdleWaiters()
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
                if state.draining || (state.held && !state.queue.isEmpty && state.failure == nil) {
                    state.idleWaiters.append(continuation)
                    return false
                }
                return true
            }
            if idle { continuation.resume() }
        }
    }

    private func wakeIdleWaiters() {
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            guard !state.draining, state.queue.isEmpty else { return [] }
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Commits batches until the queue is empty (or held for a checkpoint), then wakes anyone
    /// waiting in `close()`.
    private func drain() {
        while true {
            let mustWait = gauge?.mustWait ?? false
            let (batch, failure, idle) = state.withLock { state -> ([Item], StoreError?, [CheckedContinuation<Void, Never>]) in
                if let failure = state.failure {
                    state.draining = false
                    defer { (state.queue, state.idleWaiters) = ([], []) }
                    return (state.queue, failure, state.idleWaiters)
                }
                if state.queue.isEmpty || mustWait {
                    state.draining = false
                    state.held = !state.queue.isEmpty
                    if state.held { return ([], nil, []) }
                    defer { state.idleWaiters = [] }
                    return ([], nil, state.idleWaiters)
                }
                defer { state.queue = [] }
                return (state.queue, nil, [])
            }
            if let failure {
                for item in batch { item.commit.resolve(.failure(failure)) }
                for waiter in idle { waiter.resume() }
                return
            }
            if batch.isEmpty {
                for waiter in idle { waiter.resume() }
                return
            }
            beforeBatch?(batch.count)
            let results = commitBatch(batch.map(\.changes))
            state.withLock { $0.batches += 1 }
            var written: [(commit: PendingCommit, step: PendingCommit.WrittenStep)] = []
            for (index, item) in batch.enumerated() {
                let result = index < results.count ? results[index] : .failure(StoreError.closed)
                if case .success = result {
                    written.append((item.commit, item.commit.beginWritten()))
                } else {
                    item.commit.resolve(result)
                }
            }
            // The sync starts first; the effects (signals, deliveries, log lines) go out here while
            // the disk works, and a reply the sync settles meanwhile waits for them.
            syncer.submit(written.map(\.commit))
            for (commit, step) in written { commit.finishWritten(step) }
        }
    }
}
