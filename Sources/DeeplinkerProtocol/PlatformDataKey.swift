/// Keys of `platform_data` (SPEC §3): what `Invoke` accepts and what `ActivateAction` and
/// `Activate` carry to the app.
public enum PlatformDataKey {
    /// Wayland xdg-activation token (`XDG_ACTIVATION_TOKEN` of the invoker).
    public static let activationToken = "activation-token"
    /// X11 startup-notification id (`DESKTOP_STARTUP_ID` of the invoker).
    public static let desktopStartupID = "desktop-startup-id"
    /// `Invoke` of a notification: the action key that was clicked.
    public static let action = "action"
    /// `Invoke` of an activity: its type (default `browsing-web`).
    public static let activityType = "activity-type"
    /// The invocation id, the app's idempotency key.
    public static let invocationID = "deeplinker.invocation-id"
    /// The route's source (`url`, `universal-link`, ...).
    public static let source = "deeplinker.source"
    /// The invoked URL, for URL sources.
    public static let url = "deeplinker.url"
    /// The notification action key, as passed to the app.
    public static let notificationAction = "deeplinker.action"
    /// When the daemon received the invocation, µs since the epoch (`x`).
    public static let receivedAt = "deeplinker.received-at"
    /// True when an earlier delivery of this invocation may have arrived (`b`).
    public static let redelivery = "deeplinker.redelivery"
}
