import Dispatch
import TaskThreads

/// Batches writes and owns their lifecycle, in order, on one serial owner (the daemon's bus thread;
/// see ``CommitExecutor``): whatever is enqueued before a transaction starts goes into it, so N
/// concurrent callers cost about two transactions, not N.
///
/// Each committed batch gets the next sequence number. It is *written* at once: the
/// ``LogSyncer`` is asked to sync through its number, then its commits' written callbacks run
/// (its effects: SPEC §6's `delivering` is recorded). The sync thread only syncs (and
/// checkpoints); it posts back "durable through N", once per sync group, as a job on the same
/// owner, which then resolves every batch up to N in order (their replies). A durable job can
/// only run after the drain that wrote its batch has returned, so a reply never overtakes its
/// batch's effects: the order is the owner's queue, not flags.
///
/// A commit only writes the log (no sync, no checkpoint), so the owner never waits for the disk.
/// While the log is past its bound and not yet checkpointed (``WALGauge/mustWait``) a drain leaves
/// the queue as it is; the sync thread's checkpoint drains it again (``resume()``).
final class GroupCommitter: Sendable {
    /// Commits a batch in one transaction and returns one result per item, in order.
    typealias CommitBatch = @Sendable ([[StoreChange]]) -> [Result<Void, any Error>]

    private struct State {
        /// Enqueued, not yet written.
        var queue: [Item] = []
        /// A drain is scheduled or running.
        var draining = false
        var isClosed = false
        /// Set once a sync failed: every later write is refused with it (SPEC §9). The one place
        /// the failure is kept.
        var failure: StoreError?
        var failureHandlers: [@Sendable (StoreError) -> Void] = []
        /// The sequence number of the last batch written, and how far the log is durable.
        var written: UInt64 = 0
        var durable: UInt64 = 0
        /// Written batches whose commits wait for the sync, in sequence order.
        var unsynced: [(sequence: UInt64, commits: [PendingCommit])] = []
        var batches = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
        var executor: CommitExecutor

        /// Nothing queued, written-and-unsynced, or being drained (a failure drops what is unsynced).
        var isIdle: Bool {
            !draining && (queue.isEmpty || failure != nil) && unsynced.isEmpty
        }
    }

    private struct Item {
        var changes: [StoreChange]
        var commit: PendingCommit
    }

    private let state: LockedValue<State>
    private let commitBatch: CommitBatch
    /// Test hook called where the drain runs with each batch's size before it is committed.
    private let beforeBatch: (@Sendable (Int) -> Void)?
    /// Makes written batches durable.
    private let syncer: LogSyncer
    /// How full the log is; nil: never hold (the memory store, tests of the committer alone).
    private let gauge: WALGauge?

    init(
        beforeBatch: (@Sendable (Int) -> Void)? = nil, syncer: LogSyncer, gauge: WALGauge? = nil,
        executor: CommitExecutor = .serialQueue(), commitBatch: @escaping CommitBatch
    ) {
        self.beforeBatch = beforeBatch
        self.syncer = syncer
        self.gauge = gauge
        self.commitBatch = commitBatch
        state = LockedValue(State(executor: executor))
        // Weak: the committer owns the syncer, whose thread must not keep it alive.
        syncer.report = { [weak self] report in self?.post { $0.synced(report) } }
    }

    /// Runs the pipeline from now on on `executor` instead of the one it was made with.
    func schedule(on executor: CommitExecutor) {
        state.withLock { $0.executor = executor }
    }

    /// Number of transactions committed so far (for tests and diagnostics).
    var batchCount: Int {
        state.withLock { $0.batches }
    }

    /// Whether ``close()`` was called.
    var closed: Bool {
        state.withLock { $0.isClosed }
    }

    /// The failed sync's error, once one failed.
    var failedWith: StoreError? {
        state.withLock { $0.failure }
    }

    /// How many writes wait to be written, and how many written ones wait for the sync.
    var backlog: (toWrite: Int, toSync: Int) {
        state.withLock { ($0.queue.count, $0.unsynced.reduce(0) { $0 + $1.commits.count }) }
    }

    /// The sequence number of the last batch written.
    var writtenThrough: UInt64 {
        state.withLock { $0.written }
    }

    /// Calls `body` on the owner once a sync has failed (at once if one has).
    func whenSyncFails(_ body: @escaping @Sendable (StoreError) -> Void) {
        let failed: StoreError? = state.withLock { state in
            if state.failure == nil { state.failureHandlers.append(body) }
            return state.failure
        }
        if let failed { body(failed) }
    }

    /// Queues `changes` behind everything queued before and starts draining if idle. The drain runs
    /// later, where the executor puts it, never inside this call.
    func submit(_ changes: [StoreChange]) -> PendingCommit {
        let commit = PendingCommit()
        enum Next { case refuse(StoreError), join, drain(CommitExecutor) }
        let next: Next = state.withLock { state in
            if let failure = state.failure { return .refuse(failure) }
            if state.isClosed { return .refuse(.closed) }
            state.queue.append(Item(changes: changes, commit: commit))
            if state.draining { return .join }
            state.draining = true
            return .drain(state.executor)
        }
        switch next {
        case .refuse(let error): commit.resolve(.failure(error))
        case .join: break
        case .drain(let executor): executor.drainLater { self.drain() }
        }
        return commit
    }

    /// The log was checkpointed (on the sync thread): a queue left waiting for it is drained again.
    func resume() {
        let executor: CommitExecutor? = state.withLock { state in
            guard !state.queue.isEmpty, !state.draining else { return nil }
            state.draining = true
            return state.executor
        }
        executor?.drainLater { self.drain() }
    }

    /// Runs `job` on the owner.
    private func post(_ job: @escaping @Sendable (GroupCommitter) -> Void) {
        state.withLock { $0.executor }.execute { job(self) }
    }

    /// Refuses new writes and waits until queued ones are written and synced (or failed).
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle: Bool = state.withLock { state in
                state.isClosed = true
                if state.isIdle { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
        await syncer.close()
    }

    private func wakeIdleWaiters() {
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            guard state.isIdle else { return [] }
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// On the owner: the sync thread's report. Resolves every batch through the durable sequence
    /// number in order, or, after a failed sync, every written and queued write with the failure.
    private func synced(_ report: LogSyncer.Report) {
        switch report {
        case .durable(let through):
            let done: [PendingCommit] = state.withLock { state in
                state.durable = max(state.durable, through)
                let count = state.unsynced.prefix { $0.sequence <= through }.count
                defer { state.unsynced.removeFirst(count) }
                return state.unsynced.prefix(count).flatMap(\.commits)
            }
            for commit in done { commit.resolve(.success(())) }
        case .failed(let error):
            let (refused, handlers) = state.withLock { state -> ([PendingCommit], [@Sendable (StoreError) -> Void]) in
                if state.failure == nil { state.failure = error }
                // A scheduled drain refuses the queue itself when it runs.
                var refused = state.unsynced.flatMap(\.commits)
                state.unsynced = []
                if !state.draining {
                    refused += state.queue.map(\.commit)
                    state.queue = []
                }
                defer { state.failureHandlers = [] }
                return (refused, state.failureHandlers)
            }
            for commit in refused { commit.resolve(.failure(error)) }
            for handler in handlers { handler(error) }
        }
        wakeIdleWaiters()
    }

    /// On the owner: commits batches until the queue is empty (or must wait for a checkpoint).
    private func drain() {
        while true {
            let mustWait = gauge?.mustWait ?? false
            enum Step { case refuse([Item], StoreError), stop, commit([Item], UInt64) }
            let step: Step = state.withLock { state in
                if let failure = state.failure {
                    state.draining = false
                    defer { state.queue = [] }
                    return .refuse(state.queue, failure)
                }
                if state.queue.isEmpty || mustWait {
                    state.draining = false
                    return .stop
                }
                state.written += 1
                defer { state.queue = [] }
                return .commit(state.queue, state.written)
            }
            guard case .commit(let batch, let sequence) = step else {
                if case .refuse(let items, let failure) = step {
                    for item in items { item.commit.resolve(.failure(failure)) }
                }
                wakeIdleWaiters()
                return
            }
            beforeBatch?(batch.count)
            let results = commitBatch(batch.map(\.changes))
            var written: [PendingCommit] = []
            for (index, item) in batch.enumerated() {
                let result = index < results.count ? results[index] : .failure(StoreError.closed)
                if case .success = result { written.append(item.commit) } else { item.commit.resolve(result) }
            }
            state.withLock { state in
                state.batches += 1
                if !written.isEmpty { state.unsynced.append((sequence, written)) }
            }
            // The sync starts first; the effects (signals, deliveries, log lines) go out here while
            // the disk works. Its report is a job on this owner, so it runs after them.
            if !written.isEmpty { syncer.request(through: sequence) }
            for commit in written { commit.markWritten() }
        }
    }
}

/// Where a store's commit pipeline runs: one serial owner for its drains (the commits and their
/// effects) and for the sync thread's reports (the replies). The daemon's is its bus thread.
public struct CommitExecutor: Sendable {
    /// Runs a drain later, never inside the call (the daemon: once the bus thread has dispatched
    /// the calls it read, so one transaction takes them all).
    public let drainLater: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// Runs a job after those queued before (a sync's "durable through N").
    public let execute: @Sendable (@escaping @Sendable () -> Void) -> Void

    public init(
        drainLater: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void,
        execute: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void
    ) {
        self.drainLater = drainLater
        self.execute = execute
    }

    /// Both on one private serial dispatch queue: a store used without a daemon (a blocking write
    /// never occupies a thread of Swift's cooperative pool).
    public static func serialQueue() -> CommitExecutor {
        let queue = DispatchQueue(label: "deeplinker.store.commit", qos: .userInitiated)
        return CommitExecutor(drainLater: { queue.async(execute: $0) }, execute: { queue.async(execute: $0) })
    }
}
