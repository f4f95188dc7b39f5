/// What an invocation resolves to: a route, the app's last delivered route, or nothing
/// (success with an empty id and target).
public enum Resolution: Sendable, Hashable {
    case route(ResolvedRoute)
    /// Use the app's last delivered route with source `restore` (the app enables `restore-last-route`);
    /// if there is none, nothing.
    case restore
    case nothing

    /// The resolved route, if any.
    public var resolvedRoute: ResolvedRoute? {
        if case .route(let r) = self { return r }
        return nil
    }
}
