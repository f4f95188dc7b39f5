/// The route that structurally fits a URL path.
public struct RouteMatch: Sendable, Hashable {
    public var rule: RouteRule
    /// The decoded path segments that were matched.
    public var path: [String]

    public init(rule: RouteRule, path: [String]) {
        self.rule = rule
        self.path = path
    }

    /// Capture name → decoded value (`*rest` values are the decoded segments joined by `/`).
    public var captures: [String: String] { rule.pattern.captures(in: path) }
}
