/// What `Launch` classified its options as (SPEC §3), returned as `kind`.
public enum LaunchKind: String, Sendable, Hashable, CaseIterable {
    case deepLink = "deep-link"
    case notification
    case shortcut
    case appIcon = "app-icon"
    case unknown
}
