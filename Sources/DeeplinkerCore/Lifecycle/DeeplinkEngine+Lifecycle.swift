extension DeeplinkEngine {
    /// `NameOwnerChanged` for an app id: `newOwner` is the new unique name, `nil` when the name was lost.
    /// A new owner makes the app `inactive` (routes wait for its `BecameActive`); no owner, `not-running`.
    public mutating func nameOwnerChanged(appID: String, newOwner: String?) -> [EngineEffect] {
        let owner = newOwner.flatMap { $0.isEmpty ? nil : $0 }
        let now = clock.nowMicroseconds()
        return withRecord(appID) { $0.ownerChanged(to: owner, now: now) }
    }

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
    private mutating func report(_ state: AppState, appID: String, sender: String) throws(DeeplinkerError) -> [EngineEffect] {
        let policy = try requirePolicy(appID)
        let now = clock.nowMicroseconds()
        return try withRecord(appID) { (record: inout EngineAppRecord) throws(DeeplinkerError) -> [EngineEffect] in
            try record.authorize(sender: sender, policy: policy)
            return record.report(state, policy: policy, now: now)
        }
    }
}
