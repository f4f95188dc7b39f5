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
    /// The keys of `recent` in arrival order from `recentHead` on (the part before it is pruned).
    var recentOrder: [RecentKey] = []
    var recentHead = 0
    /// When a launch was last requested while the app was not running; cleared when its name is
    /// owned or lost again. A launch is not requested again within ``relaunchInterval``.
    var launchRequestedAt: Int64?
    /// The launch being watched for taking (SPEC §6, "A launch that does not take"): set when a
    /// launch is requested, cleared when the app becomes active or the launch is found not to take.
    var launchWatched: Int64?

    /// How long invocations for a not-running app wait on the launch already requested before
    /// another is requested (an app that failed to start is retried after this).
    static let relaunchInterval: Duration = .seconds(10)

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
