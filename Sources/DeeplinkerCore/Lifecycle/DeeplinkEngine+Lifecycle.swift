extension DeeplinkEngine {
    /// `NameOwnerChanged` for an app id: `newOwner` is the new unique name, `nil` when the name was lost.
    /// A new owner makes the app `inactive` (routes wait for its `BecameActive`); no owner, `not-running`.
    /// A `ready = "name"` app is `active` as soon as it owns its name (its route goes out then), and so
    /// is a `ready = "focus"` app whose window has the focus.
    public mutating func nameOwnerChanged(appID: String, newOwner: String?) -> [EngineEffect] {
        let owner = newOwner.flatMap { $0.isEmpty ? nil : $0 }
        let now = clock.nowMicroseconds()
        let policy = effectivePolicy(appID)
        let focused = focusedApp == appID
        return withRecord(appID) { $0.ownerChanged(to: owner, policy: policy, focused: focused, now: now) }
    }

    /// `SetFocusedApp(app_id)`: one of `appID`'s windows has the input focus now (`""`: no known
    /// app's). For `ready = "focus"` apps the app that lost the focus becomes `inactive` and the one
    /// that gained it `active` (delivering its pending route), in that order; other apps' states
    /// are left alone. Reporting the same app again changes nothing.
    public mutating func setFocusedApp(_ appID: String) -> [EngineEffect] {
        let focused = appID.isEmpty ? nil : appID
        guard focused != focusedApp else { return [] }
        let previous = focusedApp
        focusedApp = focused
        let now = clock.nowMicroseconds()
        var effects: [EngineEffect] = []
        for (app, gained) in [(previous, false), (focused, true)] {
            guard let app, let policy = policies[app], policy.ready == .focus else { continue }
            effects += withRecord(app) { $0.focusChanged(gained: gained, policy: policy, now: now) }
        }
        return effects
    }

    /// After a reload that changed `ready`: a `ready = "name"` app that owns its name is `active`
    /// (and gets its waiting route), and so is a `ready = "focus"` app whose window has the focus.
    /// An app whose `ready` changed and that the new rule does not make active (a `focus` app
    /// without the focus, a `signal` app that has not said so under it) is `inactive` again.
    public mutating func settleReadiness() -> [EngineEffect] {
        let now = clock.nowMicroseconds()
        var effects: [EngineEffect] = []
        let changed = readinessChanged
        readinessChanged = []
        for (appID, policy) in policies.sorted(by: { $0.key < $1.key }) {
            guard let record = apps[appID] else { continue }
            let active = switch policy.ready {
            case .name: record.owner != nil
            case .focus: focusedApp == appID
            case .signal: false
            }
            if active, record.state != .active {
                effects += withRecord(appID) { $0.report(.active, policy: policy, now: now) }
            } else if !active, record.state == .active, changed.contains(appID) {
                effects += withRecord(appID) { $0.report(record.owner == nil ? .notRunning : .inactive, policy: policy, now: now) }
            }
        }
        return effects
    }

    /// The app whose window has the input focus, as last reported by `SetFocusedApp`.
    public var focused: String? { focusedApp }

    /// An `org.deeplinker.Lifecycle1` signal from `sender` on the app's object path. Throws
    /// `accessDenied` unless `sender` owns the app's name or the app accepts `lifecycle-senders = any`
    /// (the daemon ignores the signal then), `unknownApp` for an unconfigured app.
    public mutating func lifecycleSignal(
        _ signal: LifecycleSignal,
        appID: String,
        sender: String
    ) throws(DeeplinkerError) -> [EngineEffect] {
        try report(signal.state, appID: appID, sender: sender)
    }

    /// `SetAppState(app_id, state)` from `sender`: the same rule as the signals. `not-running` cannot
    /// be reported (`InvalidParameter`). Reply to the caller before carrying out `deliver` effects.
    public mutating func setAppState(
        _ state: AppState,
        appID: String,
        sender: String
    ) throws(DeeplinkerError) -> [EngineEffect] {
        guard state != .notRunning else {
            throw .invalidParameter(name: "state", value: state.rawValue, reason: "must be active, inactive or background")
        }
        return try report(state, appID: appID, sender: sender)
    }

    /// The shared body of ``lifecycleSignal(_:appID:sender:)`` and ``setAppState(_:appID:sender:)``.
    /// A `ready = "name"` app's own reports are ignored: owning its name is what makes it active.
    private mutating func report(_ state: AppState, appID: String, sender: String) throws(DeeplinkerError) -> [EngineEffect] {
        let policy = try requirePolicy(appID)
        if policy.ready == .name { return [] }
        let now = clock.nowMicroseconds()
        return try withRecord(appID) { (record: inout EngineAppRecord) throws(DeeplinkerError) -> [EngineEffect] in
            try record.authorize(sender: sender, policy: policy)
            return record.report(state, policy: policy, now: now)
        }
    }
}
