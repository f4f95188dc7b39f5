import DeeplinkerCore
import Foundation

/// The in-memory twin of ``SQLiteInvocationStore`` with the same observable behaviour (revision guard,
/// last delivered routes, history bound), for tests and `--state-dir`-less experiments. Not durable.
public final class MemoryInvocationStore: InvocationStore, @unchecked Sendable {
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

    public init(historyLimit: Int = 10_000) {
        self.historyLimit = max(1, historyLimit)
    }

    public func enqueue(_ changes: [StoreChange]) -> PendingCommit {
        let closed: Bool = lock.withLock {
            if isClosed { return true }
            for change in changes { apply(change) }
            trim()
            return false
        }
        let commit = PendingCommit()
        commit.resolve(closed ? .failure(StoreError.closed) : .success(()))
        return commit
    }

    public func loadSnapshot(dedupeSince: Int64) async throws -> EngineSnapshot {
        try locked {
            let all = rows.values.map(\.invocation)
            return EngineSnapshot(
                openInvocations: all.filter { !$0.status.isFinal },
                appStates: states.values.sorted { $0.appID < $1.appID },
                lastDeliveredRoutes: lastRoutes,
                recentInvocations: all.filter {
                    $0.dedupeKey != nil && $0.receivedAt >= dedupeSince && $0.status != .rejected
                }
            )
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

    public func close() async throws {
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
