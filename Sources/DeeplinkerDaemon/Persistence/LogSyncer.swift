import TaskThreads

/// Makes written commits durable on a thread of its own, so the thread that commits (the daemon's
/// bus thread) never blocks in `fdatasync`: what a commit causes (a delivery to an active app, its
/// signals) goes out while the disk syncs, and the replies follow the sync.
///
/// Every commit handed over while a sync runs waits for the next one, which covers them all (one
/// `fdatasync` for a whole group); after a sync, the log is checkpointed here too when it has grown
/// (``WALGauge``), so neither ever runs on the thread that commits. The thread starts with the
/// first commit and, with nothing to sync, sleeps without a timeout (no idle wake-ups); ``close()``
/// lets it finish and end.
///
/// A failed sync is fatal (SPEC §9): the kernel may have dropped the pages it could not write, so
/// no later sync can vouch for them. Its group and every commit after it are answered with the
/// failure, ``onFailure`` is called once, and nothing is synced any more.
final class LogSyncer: @unchecked Sendable {
    /// Makes everything written so far durable.
    typealias Sync = @Sendable () throws -> Void
    /// Runs after each successful sync, on the sync thread (the checkpoint), told whether commits
    /// wait for the next sync (a checkpoint would delay their replies); a ``StoreError/syncFailed(path:reason:)``
    /// it throws is fatal like the sync's own.
    typealias AfterSync = @Sendable (_ othersWaiting: Bool) throws(StoreError) -> Void

    private let condition = ThreadCondition()
    private let sync: Sync
    /// Test hook called on the sync thread with the group's size before each sync.
    private let beforeSync: (@Sendable (Int) -> Void)?
    // Guarded by `condition`.
    private var waiting: [PendingCommit] = []
    private var started = false
    private var stopping = false
    private var ended = false
    private var syncs = 0
    /// `CLOCK_MONOTONIC` nanoseconds at which the running sync started, if one runs.
    private var runningSince: UInt64?
    private var endWaiters: [CheckedContinuation<Void, Never>] = []
    /// The sync that failed; once set, nothing more is acknowledged.
    private var failure: (any Error)?
    private let afterSync: AfterSync?
    /// Called once, on the sync thread, with the first failed sync's error.
    private let onFailure: (@Sendable (any Error) -> Void)?
    /// Runs on the sync thread as it ends (closes what only it used).
    private let atEnd: (@Sendable () -> Void)?

    init(
        beforeSync: (@Sendable (Int) -> Void)? = nil, afterSync: AfterSync? = nil, onFailure: (@Sendable (any Error) -> Void)? = nil,
        atEnd: (@Sendable () -> Void)? = nil, sync: @escaping Sync
    ) {
        self.beforeSync = beforeSync
        self.afterSync = afterSync
        self.onFailure = onFailure
        self.atEnd = atEnd
        self.sync = sync
    }

    /// The failed sync's error, once one failed.
    var failedWith: (any Error)? {
        condition.withLock { failure }
    }

    /// Number of syncs made so far (tests, diagnostics).
    var syncCount: Int {
        condition.withLock { syncs }
    }

    /// How long the running sync has taken so far; nil when none runs. The watchdog stops being fed
    /// when this grows past its interval, so a disk that hangs gets the daemon restarted.
    var runningFor: Duration? {
        condition.withLock { runningSince.map { .nanoseconds(Int64(clamping: ThreadCondition.now() &- $0)) } }
    }

    /// Queues written commits for the next sync, which resolves them.
    func submit(_ commits: [PendingCommit]) {
        guard !commits.isEmpty else { return }
        let refused = condition.withLock { () -> (any Error)? in
            if let failure { return failure }
            if stopping { return StoreError.closed }
            waiting.append(contentsOf: commits)
            if !started {
                started = true
                NamedThread.start(name: "store-sync", stackSize: 128 * 1024) { [self] in run() }
            }
            condition.signal()
            return nil
        }
        if let refused {
            // The committer closes first, so nothing arrives here after close() but after a failure.
            for commit in commits { commit.resolve(.failure(refused)) }
        }
    }

    /// Syncs what is queued, then ends the thread; returns once it has.
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = condition.withLock { () -> Bool in
                stopping = true
                if !started || ended { return true }
                endWaiters.append(continuation)
                condition.signal()
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Answers `group` and every commit still waiting with `error`, refuses all later ones, and
    /// reports it once.
    private func fail(_ error: any Error, _ group: [PendingCommit]) {
        let queued = condition.withLock { () -> [PendingCommit] in
            failure = error
            defer { waiting = [] }
            return waiting
        }
        for commit in group + queued { commit.resolve(.failure(error)) }
        onFailure?(error)
    }

    private func run() {
        while true {
            let group = condition.withLock { () -> [PendingCommit]? in
                while waiting.isEmpty && !stopping { condition.wait() }
                if waiting.isEmpty { return nil }
                defer { waiting = [] }
                runningSince = ThreadCondition.now()
                return waiting
            }
            guard let group else { break }
            beforeSync?(group.count)
            let outcome = Result { try sync() }
            condition.withLock {
                syncs += 1
                runningSince = nil
            }
            if case .failure(let error) = outcome {
                fail(error, group)
                break
            }
            for commit in group { commit.resolve(outcome) }
            do throws(StoreError) {
                try afterSync?(condition.withLock { !waiting.isEmpty })
            } catch {
                if case .syncFailed = error {
                    fail(error, [])
                    break
                }
            }
        }
        atEnd?()
        let waiters = condition.withLock { () -> [CheckedContinuation<Void, Never>] in
            ended = true
            defer { endWaiters = [] }
            return endWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
