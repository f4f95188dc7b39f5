/// One `[[shortcuts]]` entry: a launcher quick action and the route it produces.
public struct ShortcutConfig: Sendable, Hashable {
    public var type: String
    public var title: String
    public var icon: String?
    public var target: String
    /// Fixed parameters (already canonicalised).
    public var params: [String: String]

    public init(type: String, title: String, icon: String? = nil, target: String, params: [String: String] = [:]) {
        self.type = type
        self.title = title
        self.icon = icon
        self.target = target
        self.params = params
    }
}
