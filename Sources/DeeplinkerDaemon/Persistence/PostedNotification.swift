/// A notification the daemon showed for an app, remembered so a click can be routed (SPEC §3 "Notifications").
public struct PostedNotification: Sendable, Hashable, Codable {
    /// The id returned by `org.freedesktop.Notifications.Notify`.
    public var id: UInt32
    public var appID: String
    /// The payload JSON to route on `ActionInvoked`.
    public var payload: String
    /// Microseconds since the epoch.
    public var postedAt: Int64

    public init(id: UInt32, appID: String, payload: String, postedAt: Int64) {
        self.id = id
        self.appID = appID
        self.payload = payload
        self.postedAt = postedAt
    }
}
