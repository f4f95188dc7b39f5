/// A successfully routed invocation the daemon asks the engine to admit (SPEC §3 invocation methods).
public struct InvocationRequest: Sendable, Hashable {
    /// The id to use if a new invocation is created (a lowercase UUID).
    public var id: String
    public var appID: String
    public var route: Route
    /// The de-duplication key: app + source + input, or for notifications source + id-key value; `nil` disables.
    public var dedupeKey: String?
    /// Platform data to pass on with the route (`activation-token`, `desktop-startup-id`, `deeplinker.action`, ...).
    public var platformData: [String: String]
    /// The `kind` a `Launch` reply carries, remembered for de-duplicated repeats.
    public var launchKind: String?

    public init(
        id: String,
        appID: String,
        route: Route,
        dedupeKey: String? = nil,
        platformData: [String: String] = [:],
        launchKind: String? = nil
    ) {
        self.id = id
        self.appID = appID
        self.route = route
        self.dedupeKey = dedupeKey
        self.platformData = platformData
        self.launchKind = launchKind
    }
}
