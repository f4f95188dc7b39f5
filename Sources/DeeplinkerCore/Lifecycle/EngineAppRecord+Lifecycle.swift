extension EngineAppRecord {
    /// Checks the SPEC §3 sender rule: only the current owner of the app's name, unless `any`.
    func authorize(sender: String, policy: AppPolicy) throws(DeeplinkerError) {
        if policy.lifecycleSenders == .any { return }
        guard let owner else {
            throw .accessDenied("'\(sender)' may not report the state of '\(appID)': nobody owns its bus name")
        }
        guard owner == sender else {
            throw .accessDenied("'\(sender)' may not report the state of '\(appID)': its bus name is owned by '\(owner)'")
        }
    }

    /// Moves to `newState` as reported by an authorised sender; becoming active (again) delivers the
    /// waiting route, if any.
    mutating func report(_ newState: AppState, policy: AppPolicy, now: Int64) -> [EngineEffect] {
        var effects: [EngineEffect] = []
        let changed = newState != state
        state = newState
        activeOwner = newState == .active ? owner : nil
        if newState == .active { launchWatched = nil }
        if changed {
            effects.append(.appStateChanged(stateRecord(now: now)))
        }
        if newState == .active {
            effects += deliverPendingIfPossible(policy: policy, now: now)
        }
        return effects
    }

    /// Applies a change of the name's owner: losing it means `not-running`; gaining it (or a new
    /// owner replacing the old one) means `inactive`, so a route waits for the new owner's
    /// `BecameActive`, except for a `ready = "name"` app (owning its name is being active) and a
    /// `ready = "focus"` app whose window has the focus: those are `active` and get their route.
    mutating func ownerChanged(to newOwner: String?, policy: AppPolicy, focused: Bool, now: Int64) -> [EngineEffect] {
        guard newOwner != owner else { return [] }
        owner = newOwner
        activeOwner = nil
        launchRequestedAt = nil
        guard newOwner != nil else {
            state = .notRunning
            return [.appStateChanged(stateRecord(now: now))]
        }
        switch policy.ready {
        case .name: return report(.active, policy: policy, now: now)
        case .focus where focused: return report(.active, policy: policy, now: now)
        case .signal, .focus:
            state = .inactive
            return [.appStateChanged(stateRecord(now: now))]
        }
    }

    /// The focus moved to (`gained`) or away from one of the app's windows (`ready = "focus"`):
    /// gaining it makes the app `active` and delivers its route; losing it makes an active app
    /// `inactive`, or `not-running` when nobody owns its name.
    mutating func focusChanged(gained: Bool, policy: AppPolicy, now: Int64) -> [EngineEffect] {
        if gained { return report(.active, policy: policy, now: now) }
        guard state == .active else { return [] }
        return report(owner == nil ? .notRunning : .inactive, policy: policy, now: now)
    }
}
