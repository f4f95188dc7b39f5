import TaskThreads

/// The `store-sync` thread: makes written batches durable, so the thread that commits (the
/// daemon's bus thread) never blocks in `fdatasync`. It only syncs and checkpoints, and reports
/// back one integer: "durable through N", the highest batch sequence number asked for when its
/// sync started (``request(through:)``). Every batch asked for while a sync runs waits for the
/// next one, which covers them all: one `fdatasync` and one report (one wake of the owner) per
/// group. After a sync the log is checkpointed here when it has grown (``WALGauge``).
///
/// The thread starts with the first request and, with nothing to sync, sleeps without a timeout
/// (no idle wake-ups); ``close()`` lets it finish and end. A failed sync is fatal (SPEC §9): the
/// kernel may have dropped the pages it could not write, so no later sync can vouch for them. It
/// is reported once and the thread ends; what it means for the commits is the committer's.
final class LogSyncer: @unchecked Sendable {
    /// Makes everything written so far durable.
    typealias Sync = @Sendable () throws(StoreError) -> Void
    /// Runs after each successful sync, on the sync thread (the checkpoint), told whether batches
    /// wait for the next sync (a checkpoint would delay their replies); a ``StoreError/syncFailed(path:reason:)``
    /// it throws is fatal like the sync's own.
    typealias AfterSync = @Sendable (_ othersWaiting: Bool) throws(StoreError) -> Void

    /// What the sync thread tells the committer.
    enum Report: Sendable {
        /// Every batch through this sequence number is durable.
        case durable(through: UInt64)
        /// A sync failed; nothing more is synced.
        case failed(StoreError)
    }

    private let condition = ThreadCondition()
    private let sync: Sync
    /// Test hook called on the sync thread with the group's size (in batches) before each sync.
    private let beforeSync: (@Sendable (Int) -> Void)?
    private let afterSync: AfterSync?
    /// Runs on the sync thread as it ends (closes what only it used).
    private let atEnd: (@Sendable () -> Void)?
    // Guarded by `condition`.
    private var requested: UInt64 = 0
    private var synced: UInt64 = 0
    private var started = false
    private var stopping = false
    private var ended = false
    private var syncs = 0
    /// `CLOCK_MONOTONIC` nanoseconds at which the running sync started, if one runs.
    private var runningSince: UInt64?
    private var endWaiters: [CheckedContinuation<Void, Never>] = []
    private var reportTo: (@Sendable (Report) -> Void)?

    init(
        beforeSync: (@Sendable (Int) -> Void)? = nil, afterSync: AfterSync? = nil, atEnd: (@Sendable () -> Void)? = nil,
        sync: @escaping Sync
    ) {
        self.beforeSync = beforeSync
        self.afterSync = afterSync
        self.atEnd = atEnd
        self.sync = sync
    }

    /// Where reports go, called on the sync thread (the committer posts them to its owner).
    var report: (@Sendable (Report) -> Void)? {
        get { condition.withLock { reportTo } }
        set { condition.withLock { reportTo = newValue } }
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

    /// Asks for a sync that covers batch `sequence` (and every one before it).
    func request(through sequence: UInt64) {
        condition.withLock {
            guard !ended else { return }
            requested = max(requested, sequence)
            if !started {
                started = true
                NamedThread.start(name: "store-sync", stackSize: 128 * 1024) { [self] in run() }
            }
            condition.signal()
        }
    }

    /// Syncs what is requested, then ends the thread; returns once it has.
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

    private func run() {
        while true {
            let group = condition.withLock { () -> (through: UInt64, size: Int)? in
                while requested == synced && !stopping { condition.wait() }
                if requested == synced { return nil }
                runningSince = ThreadCondition.now()
                return (requested, Int(requested - synced))
            }
            guard let group else { break }
            beforeSync?(group.size)
            let outcome = Result { () throws(StoreError) in try sync() }
            let (send, othersWaiting) = condition.withLock {
                syncs += 1
                runningSince = nil
                if case .success = outcome { synced = group.through }
                return (reportTo, requested > synced)
            }
            if case .failure(let error) = outcome {
                send?(.failed(error))
                break
            }
            send?(.durable(through: group.through))
            do throws(StoreError) {
                try afterSync?(othersWaiting)
            } catch {
                if case .syncFailed = error {
                    send?(.failed(error))
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
