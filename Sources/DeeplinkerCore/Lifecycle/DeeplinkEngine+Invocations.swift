import DeeplinkerProtocol
extension DeeplinkEngine {
    /// The earlier invocation an identical one (same `dedupeKey`) would repeat, if it arrived within
    /// the app's `dedupe-window`. The daemon may call this before routing to answer a repeat cheaply.
    public func duplicate(of dedupeKey: String, appID: String) -> Invocation? {
        guard let policy = policies[appID], policy.dedupeWindow > .zero else { return nil }
        return apps[appID]?.duplicate(of: dedupeKey, window: policy.dedupeWindow, now: clock.nowMicroseconds())
    }

    /// Admits a routed invocation (`OpenURL`, `ActivateNotification`, `PerformShortcut`,
    /// `ContinueActivity`, `Launch`, `Invoke`).
    ///
    /// A repeat within `dedupe-window` returns the first invocation and creates nothing (it only
    /// launches the app again if it is not running). Otherwise the new invocation becomes the pending
    /// deeplink, superseding an older waiting one; it is delivered at once to an active app, and a
    /// not-running app is launched. Throws `unknownApp` for an unconfigured app.
    public mutating func receive(_ request: InvocationRequest) throws(DeeplinkerError) -> Admission {
        let policy = try requirePolicy(request.appID)
        let now = clock.nowMicroseconds()
        return withRecord(request.appID) { record in
            record.pruneRecent(window: policy.dedupeWindow, now: now)
            if let key = request.dedupeKey, policy.dedupeWindow > .zero,
               let first = record.duplicate(of: key, window: policy.dedupeWindow, now: now) {
                let summons = Summons(appID: request.appID, invocationID: first.id, platformData: request.platformData)
                // A repeat (a double click) launches an app that is still not running, but does not
                // raise a running one again: the first invocation did.
                let effects = record.state == .notRunning ? record.summon(summons, policy: policy, now: now) : []
                return Admission(invocation: first, isDuplicate: true, effects: effects)
            }
            let invocation = Invocation(
                id: request.id,
                appID: request.appID,
                source: request.route.source,
                route: request.route,
                status: .pending,
                receivedAt: now,
                platformData: request.platformData,
                dedupeKey: request.dedupeKey,
                launchKind: request.launchKind
            )
            let effects = record.admit(invocation, policy: policy, now: now)
            return Admission(invocation: invocation, isDuplicate: false, effects: effects)
        }
    }

    /// Records an invocation of a configured app that was refused with `error` (status `rejected`,
    /// detail the full D-Bus error name, no route). It does not touch the pending route and is never
    /// used for de-duplication. Throws `unknownApp` for an unconfigured app (nothing is recorded).
    public mutating func reject(
        id: String,
        appID: String,
        source: Source,
        error: DeeplinkerError,
        platformData: [String: String] = [:],
        launchKind: String? = nil
    ) throws(DeeplinkerError) -> (invocation: Invocation, effects: [EngineEffect]) {
        _ = try requirePolicy(appID)
        let invocation = Invocation(
            id: id,
            appID: appID,
            source: source,
            route: nil,
            status: .rejected,
            detail: DeeplinkerBus.errorName(error.name),
            receivedAt: clock.nowMicroseconds(),
            platformData: platformData,
            launchKind: launchKind
        )
        return (invocation, [.statusChanged(invocation)])
    }

    /// For an invocation that produced no route (e.g. `Launch` from the app icon): launches the app if
    /// it is not running, raises it if it runs but is not active; records nothing.
    public mutating func summon(appID: String, platformData: [String: String] = [:]) throws(DeeplinkerError) -> [EngineEffect] {
        let policy = try requirePolicy(appID)
        let now = clock.nowMicroseconds()
        let summons = Summons(appID: appID, invocationID: nil, platformData: platformData)
        return withRecord(appID) { $0.summon(summons, policy: policy, now: now) }
    }

    /// The launch of `appID` requested at `launchRequestedAt` (``Summons/launchRequestedAt``) did not
    /// take: the app is not running `launch-grace` after it, or its process ended before the app
    /// became ready (SPEC §6). The waiting route's `detail` says `reason`; the next invocation
    /// launches the app again. Nothing when the app runs now or a later launch was requested.
    public mutating func launchDidNotTake(appID: String, launchRequestedAt: Int64, reason: String) -> [EngineEffect] {
        guard apps[appID] != nil else { return [] }
        let now = clock.nowMicroseconds()
        return withRecord(appID) { $0.launchDidNotTake(requestedAt: launchRequestedAt, reason: reason, now: now) }
    }

    /// Whether the app's current state is `not-running` (unknown apps included).
    public func isNotRunning(_ appID: String) -> Bool {
        (apps[appID]?.state ?? .notRunning) == .notRunning
    }

    /// For an `open` app that is not running and that the bus can start: its waiting route goes
    /// out now by an `Open` to its well-known name that starts it (SPEC §6). Nothing otherwise.
    public mutating func deliverByStarting(appID: String, startTimeout: Duration = .seconds(25)) -> [EngineEffect] {
        guard apps[appID] != nil, let policy = policies[appID] else { return [] }
        let now = clock.nowMicroseconds()
        return withRecord(appID) { $0.deliverByStarting(policy: policy, startTimeout: startTimeout, now: now) }
    }

    /// `DiscardPending`: discards the app's pending deeplink; returns whether there was one.
    public mutating func discardPending(appID: String) -> (discarded: Bool, effects: [EngineEffect]) {
        guard apps[appID] != nil else { return (false, []) }
        let now = clock.nowMicroseconds()
        return withRecord(appID) { $0.discard(now: now) }
    }

    /// When the first waiting route will be older than its app's `pending-ttl` (engine
    /// microseconds; it expires just after), or nil when none ever will: the daemon sleeps until
    /// then rather than sweeping on a period, so an idle daemon is not woken for nothing.
    public func nextExpiry() -> Int64? {
        var earliest: Int64?
        for (id, record) in apps {
            guard let waiting = record.pending, let ttl = effectivePolicy(id).pendingTTL else { continue }
            let (deadline, overflow) = waiting.receivedAt.addingReportingOverflow(ttl.engineMicroseconds)
            if !overflow, deadline < (earliest ?? .max) { earliest = deadline }
        }
        return earliest
    }

    /// Expires waiting routes older than their app's `pending-ttl` (one app, or all with `nil`). Call it
    /// before `GetPending` and at ``nextExpiry()``; `BecameActive` also checks the TTL by itself.
    public mutating func expireStale(appID: String? = nil) -> [EngineEffect] {
        let now = clock.nowMicroseconds()
        let ids = appID.map { [$0] } ?? apps.keys.sorted()
        var effects: [EngineEffect] = []
        for id in ids where apps[id] != nil {
            let policy = effectivePolicy(id)
            effects += withRecord(id) { $0.expireStale(policy: policy, now: now) }
        }
        return effects
    }
}
