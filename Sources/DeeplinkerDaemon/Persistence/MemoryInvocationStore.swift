import DeeplinkerCore
import Foundation

/// The in-memory twin of ``SQLiteInvocationStore`` with the same observable behaviour (revision guard,
/// last delivered routes, history bound), for tests and `--state-dir`-less experiments. Not durable.
///
/// By default a write is written and durable as it is enqueued. ``Mode/stepped`` keeps the two
/// steps apart for tests of order (SPEC §3, §6): enqueued writes wait for ``writeQueued()`` (the
/// commit: applied, effects may run) and then for ``syncWritten()`` (durable: replies may go).
/// ``Mode/refusing`` fails every commit, as a full or read-only disk does.
public final class MemoryInvocationStore: InvocationStore, @unchecked Sendable {
    /// How enqueued writes are committed.
    public enum Mode: Sendable {
        /// Written and durable at once.
        case atOnce
        /// Written by ``writeQueued()``, durable by ``syncWritten()``.
        case stepped
        /// Every commit fails with ``StoreError/writeFailed(path:reason:)``; nothing is applied.
        case refusing
    }

    /// Maximum number of retained invocations; the oldest final ones are trimmed beyond it.
    public let historyLimit: Int

    private let lock = NSLock()
    private var rows: [String: (seq: Int, invocation: Invocation)] = [:]
    private var nextSeq = 0
    private var states: [String: AppStateRecord] = [:]
    private var lastRoutes: [String: Route] = [:]
    private var shortcutsByApp: [String: [String]] = [:]
    private var notifications: [UInt32: PostedNotification] = [:]
    private var checks: [String: DomainCheck] = [:]
    private var isClosed = false
    private var mode: Mode
    /// Stepped: enqueued, not yet written; written, not yet durable.
    private var queued: [(changes: [StoreChange], commit: PendingCommit)] = []
    private var written: [PendingCommit] = []

    public init(historyLimit: Int = 10_000, mode: Mode = .atOnce) {
        self.historyLimit = max(1, historyLimit)
        self.mode = mode
    }

    /// Changes how later commits are made (writes already queued stay queued).
    public func setMode(_ mode: Mode) {
        lock.withLock { self.mode = mode }
    }

    public func enqueue(_ changes: [StoreChange]) -> PendingCommit {
        let commit = PendingCommit()
        let outcome: Result<Void, any Error>? = lock.withLock {
            if isClosed { return .failure(StoreError.closed) }
            // Nothing to store is nothing to promise, in every mode (as the SQLite store does).
            if changes.isEmpty { return .success(()) }
            switch mode {
            case .atOnce:
                for change in changes { apply(change) }
                trim()
                return .success(())
            case .refusing:
                return .failure(StoreError.writeFailed(path: "memory", reason: "refused (a test's failing store)"))
            case .stepped:
                queued.append((changes, commit))
                return nil
            }
        }
        if let outcome { commit.resolve(outcome) }
        return commit
    }

    /// Stepped mode: commits every queued write in order (its effects may run); returns how many.
    @discardableResult
    public func writeQueued() -> Int {
        let batch: [PendingCommit] = lock.withLock {
            let batch = queued
            queued = []
            for item in batch { for change in item.changes { apply(change) } }
            trim()
            written += batch.map(\.commit)
            return batch.map(\.commit)
        }
        for commit in batch { commit.markWritten() }
        return batch.count
    }

    /// Stepped mode: makes every written write durable (its reply may go); returns how many.
    @discardableResult
    public func syncWritten() -> Int {
        let batch: [PendingCommit] = lock.withLock {
            defer { written = [] }
            return written
        }
        for commit in batch { commit.resolve(.success(())) }
        return batch.count
    }

    /// Stepped mode: how many writes wait to be written, and to be made durable.
    public var waiting: (toWrite: Int, toSync: Int) {
        lock.withLock { (queued.count, written.count) }
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
        writeQueued()
        syncWritten()
        lock.withLock { isClosed = true }
    }

    /// Runs `body` under the lock unless the store is closed.
    private func locked<T>(_ body: () -> T) throws -> T {
        try lock.withLock {
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
