extension AppPolicy {
    /// `lifecycle-senders`: whether only the owner of the app's bus name may report its state.
    public enum LifecycleSenders: String, Sendable, Hashable, CaseIterable {
        /// Only the connection that currently owns the app id's bus name.
        case owner
        /// Anyone, even when nobody owns the name (delivery then goes to the owner at delivery time).
        case any
    }
}
