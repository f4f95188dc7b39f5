/// What `ResolveURL` answers (a dry run: nothing is stored).
public struct ResolvedURL: Sendable, Hashable, Codable {
    public var appID: String
    public var target: String
    public var parameters: [String: String]
    /// The pattern of the route that matched, e.g. `/recipe/:id`.
    public var routePattern: String

    enum CodingKeys: String, CodingKey {
        case appID = "app_id"
        case target, parameters
        case routePattern = "route_pattern"
    }

    public init(appID: String, target: String, parameters: [String: String], routePattern: String) {
        self.appID = appID
        self.target = target
        self.parameters = parameters
        self.routePattern = routePattern
    }
}
