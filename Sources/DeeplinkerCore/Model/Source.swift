/// What kind of invocation produced a route (SPEC §2).
public enum Source: String, Sendable, Hashable, CaseIterable, Codable {
    case url
    case universalLink = "universal-link"
    case notification
    case shortcut
    case activity
    case restore
}
