/// One `Deliver(s app_id, s invocation_id, s source, s target, a{ss} parameters)` signal (the
/// `signal` delivery mode), as `DaemonFixture.delivers` records it. (`InvocationChanged` is
/// recorded as `DeeplinkerClient.InvocationChange`.)
public struct DeliverSignal: Sendable, Hashable {
    public let appID: String
    public let id: String
    public let source: String
    public let target: String
    public let parameters: [String: String]

    public init(appID: String, id: String, source: String, target: String, parameters: [String: String]) {
        self.appID = appID
        self.id = id
        self.source = source
        self.target = target
        self.parameters = parameters
    }
}
