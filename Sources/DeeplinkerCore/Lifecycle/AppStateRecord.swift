/// An app's lifecycle state together with the unique bus name that owned the app id when it was recorded.
public struct AppStateRecord: Sendable, Hashable, Codable {
    public var appID: String
    public var state: AppState
    /// The unique name (`:1.42`) owning the app's well-known name, `nil` if nobody does.
    public var owner: String?
    /// Microseconds since the epoch of the change.
    public var updatedAt: Int64

    public init(appID: String, state: AppState, owner: String?, updatedAt: Int64) {
        self.appID = appID
        self.state = state
        self.owner = owner
        self.updatedAt = updatedAt
    }
}
