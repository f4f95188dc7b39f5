/// What an invocation method answers: the invocation id, target and parameters (all empty when
/// nothing was routed), and for `Launch` the kind of launch.
struct InvocationReply: Sendable, Hashable {
    var id: String
    var target: String
    var parameters: [String: String]
    var kind: String?

    static let empty = InvocationReply(id: "", target: "", parameters: [:], kind: nil)
}
