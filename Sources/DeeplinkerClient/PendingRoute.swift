/// An app's pending deeplink as `GetPending` reports it.
public struct PendingRoute: Sendable, Hashable, Codable {
    public var invocationID: String
    public var source: String
    public var target: String
    public var parameters: [String: String]
    /// µs since the epoch.
    public var receivedAtMicroseconds: Int64

    enum CodingKeys: String, CodingKey {
        case invocationID = "invocation_id"
        case source, target, parameters
        case receivedAtMicroseconds = "received_at_usec"
    }

    public init(invocationID: String, source: String, target: String, parameters: [String: String], receivedAtMicroseconds: Int64) {
        self.invocationID = invocationID
        self.source = source
        self.target = target
        self.parameters = parameters
        self.receivedAtMicroseconds = receivedAtMicroseconds
    }
}
