/// One row of `GetHistory`: an invocation and where it stands.
public struct HistoryEntry: Sendable, Hashable, Codable {
    public var invocationID: String
    public var appID: String
    public var source: String
    public var target: String
    public var status: String
    /// µs since the epoch.
    public var receivedAtMicroseconds: Int64
    /// Why it failed, was rejected or expired (`GetInvocation`'s `detail`); nil when not asked for
    /// (`GetHistory` does not carry it).
    public var detail: String?

    enum CodingKeys: String, CodingKey {
        case invocationID = "invocation_id"
        case appID = "app_id"
        case source, target, status, detail
        case receivedAtMicroseconds = "received_at_usec"
    }

    public init(
        invocationID: String, appID: String, source: String, target: String, status: String, receivedAtMicroseconds: Int64,
        detail: String? = nil
    ) {
        self.detail = detail
        self.invocationID = invocationID
        self.appID = appID
        self.source = source
        self.target = target
        self.status = status
        self.receivedAtMicroseconds = receivedAtMicroseconds
    }
}
