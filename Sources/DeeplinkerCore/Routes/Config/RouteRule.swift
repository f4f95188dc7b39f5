/// One `[[routes]]` entry: a path pattern and what it leads to (or, with `exclude`, a refusal).
public struct RouteRule: Sendable, Hashable {
    /// Position in the file (0-based); the last tie-breaker of the match order.
    public var index: Int
    public var pattern: PathPattern
    /// The target; nil only for `exclude` routes.
    public var target: String?
    /// Fixed parameters (already canonicalised); they win over query items.
    public var params: [String: String]
    public var priority: Int
    public var exclude: Bool

    public init(index: Int, pattern: PathPattern, target: String?, params: [String: String] = [:], priority: Int = 0, exclude: Bool = false) {
        self.index = index
        self.pattern = pattern
        self.target = target
        self.params = params
        self.priority = priority
        self.exclude = exclude
    }

    /// True when `self` is tried before `other`: higher priority, then more literal segments,
    /// then fewer captures, then file order (SPEC §5).
    public func precedes(_ other: RouteRule) -> Bool {
        if priority != other.priority { return priority > other.priority }
        if pattern.literalCount != other.pattern.literalCount { return pattern.literalCount > other.pattern.literalCount }
        if pattern.captureCount != other.pattern.captureCount { return pattern.captureCount < other.pattern.captureCount }
        return index < other.index
    }
}
