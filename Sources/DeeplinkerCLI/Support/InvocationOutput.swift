import DeeplinkerClient

/// What the invocation verbs print: the daemon's reply, plus the launch kind for `launch`.
public struct InvocationOutput: Codable, Sendable {
    public var appID: String
    public var kind: String?
    public var invocationID: String
    public var target: String
    public var parameters: [String: String]

    enum CodingKeys: String, CodingKey {
        case appID = "app_id"
        case kind, target, parameters
        case invocationID = "invocation_id"
    }

    public init(appID: String, kind: String? = nil, reply: InvocationReply) {
        self.appID = appID
        self.kind = kind
        invocationID = reply.invocationID
        target = reply.target
        parameters = reply.parameters
    }

    /// Prints as JSON or as aligned lines.
    public func print(json: Bool) {
        if json { return Output.json(self) }
        if let kind { Output.line("kind:       \(kind)") }
        if invocationID.isEmpty && target.isEmpty {
            Output.line("no route: nothing to deliver\(appID.isEmpty ? "" : " to \(appID)")")
            return
        }
        if !appID.isEmpty { Output.line("app:        \(appID)") }
        Output.line("route:      \(Output.route(target, parameters))")
        Output.line("invocation: \(invocationID)")
    }
}
