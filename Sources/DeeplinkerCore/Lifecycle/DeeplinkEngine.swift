/// The pending-deeplink state machine (SPEC §2, §6): a functional core the daemon drives.
///
/// Each event method updates the per-app records and returns ``EngineEffect``s for the daemon to carry
/// out in order: persist status and state changes (committed before anything else happens, synced
/// before a method replies), emit `InvocationChanged`, deliver routes, launch apps. A change the
/// daemon could not store is undone with ``forgetUnstored(_:appStates:)``. The engine does no I/O; time comes from the
/// injected ``EngineClock``. It is a value type: the daemon keeps one inside a single actor.
public struct DeeplinkEngine: Sendable {
    let clock: any EngineClock
    /// When the engine was made (engine µs): it has seen every invocation since, and the store
    /// holds the ones before (``storedDuplicateSince(appID:key:)``).
    public let startedAt: Int64

    /// The engine clock's time, µs since the Unix epoch (for ids and timestamps made around it).
    public var now: Int64 { clock.nowMicroseconds() }
    /// The policy of every configured app; an app without one is unknown.
    var policies: [String: AppPolicy]
    var apps: [String: EngineAppRecord] = [:]
    /// The app whose window has the input focus (`SetFocusedApp`), nil for none.
    var focusedApp: String?
    /// Apps whose `ready` changed with the last ``setPolicies(_:)``, until ``settleReadiness()``.
    var readinessChanged: Set<String> = []

    public init(clock: any EngineClock = SystemEngineClock(), policies: [String: AppPolicy] = [:]) {
        self.clock = clock
        self.startedAt = clock.nowMicroseconds()
        self.policies = policies
    }

    /// Replaces the configured apps (start-up and `Reload`). Records of apps that disappear are kept
    /// (their pending routes stay until discarded or expired) but new invocations for them are refused.
    public mutating func setPolicies(_ policies: [String: AppPolicy]) {
        for (appID, policy) in policies where self.policies[appID].map({ $0.ready != policy.ready }) ?? false {
            readinessChanged.insert(appID)
        }
        self.policies = policies
    }

    /// The policy of a configured app, `nil` if the app is unknown.
    public func policy(for appID: String) -> AppPolicy? {
        policies[appID]
    }

    /// The configured app ids, sorted (`ListApps`).
    public var knownApps: [String] {
        policies.keys.sorted()
    }

    /// How many configured apps have a pending deeplink (the service manager's `STATUS=` line).
    public var pendingCount: Int {
        policies.keys.reduce(0) { $0 + (apps[$1]?.reportedPending == nil ? 0 : 1) }
    }

    /// The app's lifecycle state (`GetAppState`); `not-running` for an app never seen.
    public func state(of appID: String) -> AppState {
        apps[appID]?.state ?? .notRunning
    }

    /// The unique name currently owning the app id's bus name, as last reported.
    public func owner(of appID: String) -> String? {
        apps[appID]?.owner
    }

    /// The app's pending deeplink for `GetPending`: the waiting route, else the one being delivered.
    /// Call ``expireStale(appID:)`` first so a route older than `pending-ttl` is not reported.
    public func pending(appID: String) -> Invocation? {
        apps[appID]?.reportedPending
    }

    /// The route the app last acknowledged, with its original source.
    public func lastDeliveredRoute(appID: String) -> Route? {
        apps[appID]?.lastDelivered
    }

    /// The `restore` route for an invocation that produced none (`ContinueActivity` with an empty URL,
    /// `Launch` of kind `app-icon`/`unknown`): the last delivered route if `restore-last-route` is on.
    public func restoreRoute(appID: String) -> Route? {
        guard policies[appID]?.restoreLastRoute == true, var route = apps[appID]?.lastDelivered else { return nil }
        route.source = .restore
        return route
    }

    /// The policy to apply to an app's record: its configured one, or the defaults once unconfigured.
    func effectivePolicy(_ appID: String) -> AppPolicy {
        policies[appID] ?? .default
    }

    /// Runs `body` on the app's record (created on first use) and stores it back.
    mutating func withRecord<T, E: Error>(_ appID: String, _ body: (inout EngineAppRecord) throws(E) -> T) throws(E) -> T {
        // Mutated in place: a copy taken out of `apps` would copy its `recent` table on first write.
        try body(&apps[appID, default: EngineAppRecord(appID: appID)])
    }

    /// The known-app check shared by every event that needs a configured app.
    func requirePolicy(_ appID: String) throws(DeeplinkerError) -> AppPolicy {
        guard let policy = policies[appID] else { throw .unknownApp(appID) }
        return policy
    }
}
