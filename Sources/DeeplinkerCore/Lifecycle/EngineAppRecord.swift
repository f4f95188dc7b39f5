/// Everything the engine tracks for one app id; all transitions live in its extensions.
///
/// Invariant: `pending` is the newest non-final invocation that is not being delivered, `inFlight`
/// the one being delivered; when both exist `pending` is newer and waits for `inFlight`'s outcome.
struct EngineAppRecord: Sendable, Hashable {
    var appID: String
    var state: AppState = .notRunning
    /// The unique name currently owning the app id's well-known name.
    var owner: String?
    /// The owner at the time the app last became active (`nil` unless `state == .active`).
    var activeOwner: String?
    var pending: Invocation?
    var inFlight: InFlightDelivery?
    /// The route most recently acknowledged by the app.
    var lastDelivered: Route?
    /// The first invocation seen for each dedupe key, pruned once outside the window.
    var recent: [String: Invocation] = [:]

    init(appID: String) {
        self.appID = appID
    }

    /// The route `GetPending` reports: the waiting one, else the one in flight (unless discarded).
    var reportedPending: Invocation? {
        if let pending { return pending }
        if let inFlight, !inFlight.discardRequested { return inFlight.invocation }
        return nil
    }

    /// The record of the current state, for persistence.
    func stateRecord(now: Int64) -> AppStateRecord {
        AppStateRecord(appID: appID, state: state, owner: owner, updatedAt: now)
    }
}
