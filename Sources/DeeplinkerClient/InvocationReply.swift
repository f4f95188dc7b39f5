/// What an invocation method answers: the invocation id and the route it produced (empty id and
/// target when the invocation created no route, e.g. an icon launch).
public struct InvocationReply: Sendable, Hashable, Codable {
    public var invocationID: String
    public var target: String
    public var parameters: [String: String]

    enum CodingKeys: String, CodingKey {
        case invocationID = "invocation_id"
        case target, parameters
    }

    public init(invocationID: String, target: String, parameters: [String: String]) {
        self.invocationID = invocationID
        self.target = target
        self.parameters = parameters
    }
}
