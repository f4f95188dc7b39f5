/// The part of launch options that gets routed, by the source it stands for.
public enum LaunchInput: Sendable, Hashable {
    /// `url`: routed like `OpenURL`.
    case url(String)
    /// `user-activity.webpage-url`: routed like `ContinueActivity("browsing-web", url)`.
    case webpageURL(String)
    /// `remote-notification` / `local-notification`: routed like a clicked notification.
    case notification(JSONValue)
    /// `shortcut-item`: routed like `PerformShortcut`.
    case shortcut(String)
    /// Nothing to route (`app-icon`, `unknown`).
    case none
}
