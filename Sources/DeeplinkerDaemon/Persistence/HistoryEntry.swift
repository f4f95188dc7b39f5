import DeeplinkerCore

/// One row of `GetHistory` (SPEC §3, `a(sssssx)`): only what the listing shows. Reading these
/// instead of whole ``Invocation``s skips the parameters and platform data (a JSON decode each) and
/// most columns: a 10,000-row `GetHistory` peaked at about 10 MB of transient heap with whole
/// invocations, which glibc then kept in the arena of whichever thread ran it.
public struct HistoryEntry: Sendable, Hashable {
    public var id: String
    public var appID: String
    /// The route's source if the invocation was routed, else the invocation's.
    public var source: Source
    /// The route's target, or "" if the invocation was not routed.
    public var target: String
    public var status: InvocationStatus
    public var receivedAt: Int64

    public init(id: String, appID: String, source: Source, target: String, status: InvocationStatus, receivedAt: Int64) {
        self.id = id
        self.appID = appID
        self.source = source
        self.target = target
        self.status = status
        self.receivedAt = receivedAt
    }

    /// The entry `invocation` is listed as.
    public init(_ invocation: Invocation) {
        self.init(
            id: invocation.id, appID: invocation.appID, source: invocation.route?.source ?? invocation.source,
            target: invocation.route?.target ?? "", status: invocation.status, receivedAt: invocation.receivedAt)
    }
}

extension InvocationStore {
    /// ``history(appID:limit:)`` as listing entries; stores override it to read less.
    public func historyEntries(appID: String?, limit: Int) async throws -> [HistoryEntry] {
        try await history(appID: appID, limit: limit).map(HistoryEntry.init)
    }
}
