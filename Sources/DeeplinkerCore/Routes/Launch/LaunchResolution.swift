/// The reply of `Launch`: the classified kind and what it routes to.
public struct LaunchResolution: Sendable, Hashable {
    public var kind: LaunchKind
    public var resolution: Resolution

    public init(kind: LaunchKind, resolution: Resolution) {
        self.kind = kind
        self.resolution = resolution
    }
}
