/// What the store hands the engine at start-up to rebuild its state after a restart or crash: what
/// serving needs, not the history (de-duplication asks the store per key, ``DeeplinkEngine/storedDuplicateSince(appID:key:)``).
public struct EngineSnapshot: Sendable, Hashable {
    /// Invocations whose status is `pending` or `delivering`, any order.
    public var openInvocations: [Invocation]
    /// The last recorded state and owner of each app.
    public var appStates: [AppStateRecord]
    /// Each app's last delivered route (for `restore-last-route`).
    public var lastDeliveredRoutes: [String: Route]

    public init(
        openInvocations: [Invocation] = [],
        appStates: [AppStateRecord] = [],
        lastDeliveredRoutes: [String: Route] = [:]
    ) {
        self.openInvocations = openInvocations
        self.appStates = appStates
        self.lastDeliveredRoutes = lastDeliveredRoutes
    }
}
