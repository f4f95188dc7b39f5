import DeeplinkerCore

/// One durable modification; a list of them is committed atomically.
public enum StoreChange: Sendable, Hashable {
    /// Insert or update an invocation by id; a version with a lower `revision` than the stored one is ignored.
    case invocation(Invocation)
    /// Record an app's state and owner.
    case appState(AppStateRecord)
    /// Replace the app's published shortcut types (`SetShortcuts`).
    case shortcuts(appID: String, types: [String])
    /// Remember a posted notification (`PostNotification`).
    case notificationPosted(PostedNotification)
    /// Forget a notification (`NotificationClosed`).
    case notificationClosed(id: UInt32)
    /// Record the latest check of a claimed domain (`SetDomainVerification`), replacing the one before.
    case domainCheck(DomainCheck)
}
