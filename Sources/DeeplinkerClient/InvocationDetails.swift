import DBusKit
import DeeplinkerProtocol

/// One invocation as `GetInvocation` returns it (SPEC §3): what came in, where it stands and why.
public struct InvocationDetails: Sendable, Hashable, Codable {
    public var invocationID: String
    public var appID: String
    public var source: String
    /// `""` when nothing was routed.
    public var target: String
    public var parameters: [String: String]
    /// The invoked URL, URL sources only.
    public var url: String?
    public var status: String
    /// µs since the epoch.
    public var receivedAtMicroseconds: Int64
    public var attempts: UInt32
    /// Why it failed, was rejected or expired; `""` otherwise.
    public var detail: String

    enum CodingKeys: String, CodingKey {
        case invocationID = "invocation_id"
        case appID = "app_id"
        case source, target, parameters, url, status, attempts, detail
        case receivedAtMicroseconds = "received_at_usec"
    }

    /// From the `a{sv}` of `GetInvocation`; missing keys read as empty.
    public init(_ fields: [String: DBusValue]) {
        invocationID = fields[InvocationField.invocationID]?.stringValue ?? ""
        appID = fields[InvocationField.appID]?.stringValue ?? ""
        source = fields[InvocationField.source]?.stringValue ?? ""
        target = fields[InvocationField.target]?.stringValue ?? ""
        parameters = fields[InvocationField.parameters]?.stringDictionaryValue ?? [:]
        url = fields[InvocationField.url]?.stringValue
        status = fields[InvocationField.status]?.stringValue ?? ""
        receivedAtMicroseconds = fields[InvocationField.receivedAt]?.int64Value ?? 0
        attempts = fields[InvocationField.attempts]?.uint32Value ?? 0
        detail = fields[InvocationField.detail]?.stringValue ?? ""
    }
}
