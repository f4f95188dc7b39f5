/// A route produced from an invocation, with what the daemon needs besides the route itself.
public struct ResolvedRoute: Sendable, Hashable {
    public var appID: String
    public var route: Route
    /// The pattern of the route that matched (`ResolveURL`'s `route_pattern`); `(fallback)` for the
    /// fallback target; nil for routes not produced from a URL.
    public var routePattern: String?
    /// The normalised URL, for `deeplinker.url` in platform data (URL sources only).
    public var url: String?
    /// The value at the app's `notifications.id-key`, for de-duplication (notifications only).
    public var notificationID: String?

    public init(appID: String, route: Route, routePattern: String? = nil, url: String? = nil, notificationID: String? = nil) {
        self.appID = appID
        self.route = route
        self.routePattern = routePattern
        self.url = url
        self.notificationID = notificationID
    }
}
