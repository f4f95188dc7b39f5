/// Where an invocation stands (SPEC §2); reported by `InvocationChanged` and `GetHistory`.
public enum InvocationStatus: String, Sendable, Hashable, CaseIterable, Codable {
    case pending
    case delivering
    case delivered
    case superseded
    case expired
    case discarded
    case failed
    case rejected

    /// A final status never changes again.
    public var isFinal: Bool {
        switch self {
        case .pending, .delivering: false
        default: true
        }
    }
}
