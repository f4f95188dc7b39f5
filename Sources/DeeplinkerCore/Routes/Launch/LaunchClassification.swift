/// The kind of a launch and the input to route for it.
public struct LaunchClassification: Sendable, Hashable {
    public var kind: LaunchKind
    public var input: LaunchInput

    public init(kind: LaunchKind, input: LaunchInput) {
        self.kind = kind
        self.input = input
    }
}
