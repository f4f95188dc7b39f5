import DeeplinkerCore

extension DaemonCore {
    func requireKnown(_ appID: String) throws(DeeplinkerError) {
        guard registry.appIDs.contains(appID) else { throw .unknownApp(appID) }
    }

    /// `GetPending`: the app's pending deeplink (also while its delivery is in flight).
    func pending(appID: String) throws(DeeplinkerError) -> Invocation? {
        try requireKnown(appID)
        apply(engine.expireStale(appID: appID))
        return engine.pending(appID: appID)
    }

    /// `DiscardPending`.
    func discardPending(appID: String) throws(DeeplinkerError) -> (Bool, PendingCommit) {
        try requireKnown(appID)
        let (discarded, effects) = engine.discardPending(appID: appID)
        return (discarded, apply(effects))
    }

    func appState(_ appID: String) throws(DeeplinkerError) -> AppState {
        try requireKnown(appID)
        return engine.state(of: appID)
    }

    /// `SetAppState`: answered as soon as the engine took it; deliveries follow after the commit.
    func setAppState(_ appID: String, state: String, sender: String) throws(DeeplinkerError) {
        try requireKnown(appID)
        guard let parsed = AppState(rawValue: state), parsed != .notRunning else {
            throw .invalidParameter(name: "state", value: state, reason: "must be active, inactive or background")
        }
        apply(try engine.setAppState(parsed, appID: appID, sender: sender))
    }

    /// A lifecycle signal from `sender` on an app's object path; refused senders are ignored.
    func lifecycleSignal(path: String, member: String, sender: String) {
        guard let appID = appsByPath[path], let signal = LifecycleSignal(rawValue: member) else { return }
        do {
            apply(try engine.lifecycleSignal(signal, appID: appID, sender: sender))
        } catch {
            logger.notice("ignored \(member) for \(appID) from \(sender): \(error.message)")
        }
    }

    /// `NameOwnerChanged` for a configured app id.
    func ownerChanged(name: String, newOwner: String) {
        guard registry.contains(name) || engine.policy(for: name) != nil else { return }
        apply(engine.nameOwnerChanged(appID: name, newOwner: newOwner.isEmpty ? nil : newOwner))
    }

    /// The result of a delivery attempt.
    func deliveryFinished(_ outcome: DeliveryOutcome, appID: String, invocationID: String, attempt: Int) {
        apply(engine.deliveryOutcome(outcome, appID: appID, invocationID: invocationID, attempt: attempt))
    }

    /// `SetShortcuts`: publishes exactly these configured shortcuts, durably.
    func setShortcuts(appID: String, types: [String]) throws(DeeplinkerError) -> PendingCommit {
        _ = try registry.shortcutsToPublish(appID: appID, types: types)
        published[appID] = types
        return store.enqueue([.shortcuts(appID: appID, types: types)])
    }

    /// Periodic TTL sweep.
    func expireStale() {
        apply(engine.expireStale())
        scheduleSweep(rescheduled: true)
    }
}
