/// The engine's answer to an ``InvocationRequest``: the invocation whose id and route form the reply.
public struct Admission: Sendable, Hashable {
    /// The new invocation, or for a de-duplicated repeat the first one (its reply values, not its live status).
    public var invocation: Invocation
    /// True when `invocation` is an earlier one and nothing new was created.
    public var isDuplicate: Bool
    /// What the daemon must do, in order (persist status changes before replying or delivering).
    public var effects: [EngineEffect]

    public init(invocation: Invocation, isDuplicate: Bool, effects: [EngineEffect]) {
        self.invocation = invocation
        self.isDuplicate = isDuplicate
        self.effects = effects
    }
}
