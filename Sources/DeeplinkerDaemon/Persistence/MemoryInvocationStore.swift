import DeeplinkerCore
import TaskThreads

/// The in-memory twin of ``SQLiteInvocationStore`` with the same observable behaviour (revision guard,
/// last delivered routes, history bound), for tests and `--state-dir`-less experiments. Not durable.
///
/// A "disk" under the same ``GroupCommitter`` and ``LogSyncer`` as the SQLite store, with a sync
/// that does nothing: its writes are batched, written and made durable on the executor it is
/// given (the daemon's bus thread), in production's order. ``Mode/stepped`` lets a test take the
/// two steps itself (SPEC §3, §6): enqueued writes wait for ``writeQueued()`` (the commit:
/// applied, effects may run) and then for ``syncWritten()`` (durable: replies may go).
/// ``Mode/refusing`` fails every write, as a full or read-only disk does.
public final class MemoryInvocationStore: InvocationStore, @unchecked Sendable {
    /// How enqueued writes are committed.
    public enum Mode: Sendable {
        /// Written and synced as soon as the executor runs the committer.
        case atOnce
        /// Written by ``writeQueued()``, durable by ``syncWritten()``.
        case stepped
        /// Every write fails with ``StoreError/writeFailed(path:reason:)``; nothing is applied.
        case refusing
    }

    /// Maximum number of retained invocations; the oldest final ones are trimmed beyond it.
    public let historyLimit: Int

    private let lock = LockedValue(())
    private var rows: [String: (seq: Int, invocation: Invocation)] = [:]
    private var nextSeq = 0
    private var states: [String: AppStateRecord] = [:]
    private var lastRoutes: [String: Route] = [:]
    private var shortcutsByApp: [String: [String]] = [:]
    private var notifications: [UInt32: PostedNotification] = [:]
    private var checks: [String: DomainCheck] = [:]
    private var isClosed = false
    private let committer: GroupCommitter
    private let syncer: LogSyncer
    private let steps: Steps

    public init(historyLimit: Int = 10_000, mode: Mode = .atOnce) {
        self.historyLimit = max(1, historyLimit)
        let steps = Steps(mode: mode)
        self.steps = steps
        syncer = LogSyncer { () throws(StoreError) in steps.syncMayRun() }
        let box = LockedValue<MemoryInvocationStore?>(nil)
        committer = GroupCommitter(syncer: syncer, executor: steps.executor) { batch in
            guard let store = box.withLock({ $0 }) else { return batch.map { _ in .failure(StoreError.closed) } }
            return store.commit(batch)
        }
        // Unowned in effect: cleared when the store closes, and the store outlives its writes.
        box.withLock { $0 = self }
        steps.committer = committer
        releaseStore = { box.withLock { $0 = nil } }
    }

    private var releaseStore: @Sendable () -> Void = {}

    /// Changes how later writes are made (writes already queued stay queued).
    public func setMode(_ mode: Mode) {
        steps.setMode(mode)
    }

    public func enqueue(_ changes: [StoreChange]) -> PendingCommit {
        // Nothing to store is nothing to promise, in every mode (as the SQLite store does).
        if changes.isEmpty { return .committed() }
        if lock.withLock({ _ in isClosed }) { return .resolved(.failure(StoreError.closed)) }
        if steps.mode == .refusing {
            return .resolved(.failure(StoreError.writeFailed(path: "memory", reason: "refused (a test's failing store)")))
        }
        return committer.submit(changes)
    }

    public func scheduleCommits(on executor: CommitExecutor) {
        steps.setBase(executor)
    }

    public var syncRunningFor: Duration? {
        syncer.runningFor
    }

    public func whenSyncFails(_ body: @escaping @Sendable (any Error) -> Void) {
        committer.whenSyncFails(body)
    }

    /// Stepped mode: lets the writes held so far be committed, in order (their effects may run),
    /// and returns once they are; returns how many.
    @discardableResult
    public func writeQueued() async -> Int {
        await steps.releaseWrites()
    }

    /// Stepped mode: lets every written write be made durable (the sync thread reports it to the
    /// executor, and their replies follow there); returns how many.
    @discardableResult
    public func syncWritten() -> Int {
        steps.releaseSync()
    }

    /// Returns once every write enqueued before is durable and its reply callbacks have run: an
    /// empty write through the same committer, behind them in its order.
    public func settled() async {
        try? await committer.submit([]).wait()
    }

    /// How many writes wait to be written, and to be made durable.
    public var waiting: (toWrite: Int, toSync: Int) {
        committer.backlog
    }

    /// Commits one batch (on the committer's executor).
    private func commit(_ batch: [[StoreChange]]) -> [Result<Void, any Error>] {
        lock.withLock { _ in
            for changes in batch { for change in changes { apply(change) } }
            trim()
        }
        return batch.map { _ in .success(()) }
    }

    public func loadSnapshot() async throws -> EngineSnapshot {
        try locked {
            EngineSnapshot(
                openInvocations: rows.values.map(\.invocation).filter { !$0.status.isFinal },
                appStates: states.values.sorted { $0.appID < $1.appID },
                lastDeliveredRoutes: lastRoutes
            )
        }
    }

    public func firstInvocation(appID: String, dedupeKey: String, since: Int64) throws -> Invocation? {
        try locked {
            rows.values
                .filter {
                    $0.invocation.appID == appID && $0.invocation.dedupeKey == dedupeKey && $0.invocation.receivedAt >= since
                        && $0.invocation.status != .rejected
                }
                .min { ($0.invocation.receivedAt, $0.seq) < ($1.invocation.receivedAt, $1.seq) }?.invocation
        }
    }

    public func history(appID: String?, limit: Int) async throws -> [Invocation] {
        try locked {
            let ordered = rows.values
                .filter { appID == nil || $0.invocation.appID == appID }
                .sorted { ($0.invocation.receivedAt, $0.seq) > ($1.invocation.receivedAt, $1.seq) }
                .map(\.invocation)
            return limit > 0 ? Array(ordered.prefix(limit)) : ordered
        }
    }

    public func invocation(id: String) async throws -> Invocation? {
        try locked { rows[id]?.invocation }
    }

    public func appStates() async throws -> [AppStateRecord] {
        try locked { states.values.sorted { $0.appID < $1.appID } }
    }

    public func shortcuts(appID: String) async throws -> [String] {
        try locked { shortcutsByApp[appID] ?? [] }
    }

    public func allShortcuts() async throws -> [String: [String]] {
        try locked { shortcutsByApp }
    }

    public func notifications() async throws -> [UInt32: PostedNotification] {
        try locked { notifications }
    }

    public func domainChecks() async throws -> [DomainCheck] {
        try locked { checks.values.sorted { ($0.appID, $0.domain) < ($1.appID, $1.domain) } }
    }

    /// Finishes queued writes (as the SQLite store does), then refuses everything.
    public func close() async throws {
        steps.setMode(.atOnce)
        _ = await steps.releaseWrites()
        steps.releaseSync()
        await committer.close()
        lock.withLock { _ in isClosed = true }
        releaseStore()
    }

    /// Runs `body` under the lock unless the store is closed.
    private func locked<T>(_ body: () -> T) throws -> T {
        try lock.withLock { _ in
            if isClosed { throw StoreError.closed }
            return body()
        }
    }

    /// Applies one change (lock held).
    private func apply(_ change: StoreChange) {
        switch change {
        case .invocation(let invocation):
            if let existing = rows[invocation.id] {
                guard invocation.revision >= existing.invocation.revision else { return }
                rows[invocation.id] = (existing.seq, invocation)
            } else {
                nextSeq += 1
                rows[invocation.id] = (nextSeq, invocation)
            }
            if invocation.status == .delivered, let route = invocation.route {
                lastRoutes[invocation.appID] = route
            }
        case .appState(let record):
            states[record.appID] = record
        case .shortcuts(let appID, let types):
            shortcutsByApp[appID] = types.isEmpty ? nil : types
        case .notificationPosted(let notification):
            notifications[notification.id] = notification
        case .notificationClosed(let id):
            notifications[id] = nil
        case .domainCheck(let check):
            checks[check.appID + "\u{0}" + check.domain] = check
        }
    }

    /// Once more than ``HistoryRetention/trimThreshold(limit:)`` invocations are kept, drops final
    /// ones down to `historyLimit` by ``HistoryRetention/trimPlan(finalCounts:excess:)``, as the
    /// SQLite store does (lock held).
    private func trim() {
        guard rows.count > HistoryRetention.trimThreshold(limit: historyLimit) else { return }
        let finals = Dictionary(grouping: rows.values.filter { $0.invocation.status.isFinal }) { $0.invocation.appID }
        let plan = HistoryRetention.trimPlan(
            finalCounts: finals.mapValues(\.count), excess: rows.count - historyLimit)
        for (app, cut) in plan {
            let victims = finals[app, default: []]
                .sorted { ($0.invocation.receivedAt, $0.seq) < ($1.invocation.receivedAt, $1.seq) }
                .prefix(cut)
            for victim in victims { rows[victim.invocation.id] = nil }
        }
    }
}

/// The memory store's steps: the executor it hands its committer, which holds drains while the
/// mode is ``MemoryInvocationStore/Mode/stepped`` until ``releaseWrites()``, and the gate its
/// no-op sync passes, held in that mode until ``releaseSync()`` has let its batches through.
private final class Steps: @unchecked Sendable {
    private let condition = ThreadCondition()
    // Guarded by `condition`.
    private var currentMode: MemoryInvocationStore.Mode
    private var base = CommitExecutor.serialQueue()
    private var heldDrains: [@Sendable () -> Void] = []
    /// Batches through this sequence number may be synced in stepped mode.
    private var syncAllowed: UInt64 = 0
    private weak var weakCommitter: GroupCommitter?

    init(mode: MemoryInvocationStore.Mode) {
        currentMode = mode
    }

    var committer: GroupCommitter? {
        get { condition.withLock { weakCommitter } }
        set { condition.withLock { weakCommitter = newValue } }
    }

    var mode: MemoryInvocationStore.Mode { condition.withLock { currentMode } }

    func setMode(_ mode: MemoryInvocationStore.Mode) {
        condition.withLock {
            currentMode = mode
            condition.broadcast()
        }
    }

    func setBase(_ executor: CommitExecutor) {
        condition.withLock { base = executor }
    }

    /// The committer's executor: the base one, but for drains asked for in stepped mode.
    var executor: CommitExecutor {
        CommitExecutor(
            drainLater: { [self] drain in
                let now: CommitExecutor? = condition.withLock {
                    if currentMode == .stepped {
                        heldDrains.append(drain)
                        return nil
                    }
                    return base
                }
                now?.drainLater(drain)
            },
            execute: { [self] job in condition.withLock { base }.execute(job) })
    }

    /// Hands the held drains to the base executor and waits until they have run.
    func releaseWrites() async -> Int {
        let (drains, executor, count) = condition.withLock { () -> ([@Sendable () -> Void], CommitExecutor, Int) in
            defer { heldDrains = [] }
            return (heldDrains, base, weakCommitter?.backlog.toWrite ?? 0)
        }
        for drain in drains {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                executor.drainLater {
                    drain()
                    done.resume()
                }
            }
        }
        return count
    }

    /// Lets the sync of every batch written so far go.
    @discardableResult
    func releaseSync() -> Int {
        let committer = self.committer
        let (through, count) = (committer?.writtenThrough ?? 0, committer?.backlog.toSync ?? 0)
        condition.withLock {
            syncAllowed = max(syncAllowed, through)
            condition.broadcast()
        }
        return count
    }

    /// The no-op sync, on the sync thread: in stepped mode, waits until ``releaseSync()`` covers
    /// what was written when it started.
    func syncMayRun() {
        let through = committer?.writtenThrough ?? 0
        condition.withLock {
            while currentMode == .stepped && syncAllowed < through { condition.wait() }
        }
    }
}
