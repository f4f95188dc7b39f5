/// What `Launch` answers: how the launch options were classified and the invocation it made.
public struct LaunchReply: Sendable, Hashable, Codable {
    /// `deep-link`, `notification`, `shortcut`, `app-icon` or `unknown`.
    public var kind: String
    public var invocation: InvocationReply

    public init(kind: String, invocation: InvocationReply) {
        self.kind = kind
        self.invocation = invocation
    }
}
