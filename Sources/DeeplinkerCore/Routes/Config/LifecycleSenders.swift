/// Who may report an app's lifecycle state (`lifecycle-senders` in a route file).
public enum LifecycleSenders: String, Sendable, Hashable, CaseIterable {
    /// Only the connection owning the app's bus name.
    case owner
    /// Any process of the user.
    case any
}
