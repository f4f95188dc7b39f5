/// One `InvocationChanged` signal: an invocation's new status (never parameter values).
public struct InvocationChange: Sendable, Hashable, Codable {
    public var appID: String
    public var invocationID: String
    public var status: String
    /// E.g. the error name of a `rejected` invocation.
    public var detail: String

    enum CodingKeys: String, CodingKey {
        case appID = "app_id"
        case invocationID = "invocation_id"
        case status, detail
    }

    public init(appID: String, invocationID: String, status: String, detail: String) {
        self.appID = appID
        self.invocationID = invocationID
        self.status = status
        self.detail = detail
    }
}
