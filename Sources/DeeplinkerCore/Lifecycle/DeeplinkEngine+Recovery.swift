extension DeeplinkEngine {
    /// Rebuilds the engine's state at start-up from the store's snapshot and the current owners of the
    /// app ids' bus names (`currentOwners[appID]` = unique name; absent = nobody owns it).
    ///
    /// - An app's recorded state is restored only if the same unique name still owns its name;
    ///   otherwise it is `inactive` (someone else owns it) or `not-running`. A `ready = "name"` app
    ///   is `active` whenever its name is owned. A state recorded without
    ///   an owner (`lifecycle-senders = any`) is not restored.
    /// - Per app, the newest open invocation becomes the pending deeplink; older open ones are
    ///   `superseded`. One found `delivering` (the daemon died before the outcome) becomes `pending`
    ///   with `redelivery` set, so it is delivered again, flagged, once the app is active — at once if
    ///   its restored state is `active`.
    /// - Last delivered routes are taken over. De-duplication keys are not: the daemon asks the
    ///   store for one when it is needed (``storedDuplicateSince(appID:key:)``).
    ///
    /// Call it once, before any other event; returns the effects to persist and carry out.
    public mutating func recover(from snapshot: EngineSnapshot, currentOwners: [String: String]) -> [EngineEffect] {
        let now = clock.nowMicroseconds()
        var effects: [EngineEffect] = []
        var appIDs = Set(currentOwners.keys)

        for stored in snapshot.appStates {
            appIDs.insert(stored.appID)
            let current = currentOwners[stored.appID].flatMap { $0.isEmpty ? nil : $0 }
            let ready = effectivePolicy(stored.appID).ready
            withRecord(stored.appID) { record in
                record.owner = current
                if ready == .name {
                    // Owning its name is being active, whatever was recorded.
                    record.state = current == nil ? .notRunning : .active
                    record.activeOwner = current
                } else if let owner = stored.owner, owner == current {
                    record.state = stored.state
                    record.activeOwner = stored.state == .active ? owner : nil
                } else {
                    record.state = current == nil ? .notRunning : .inactive
                    record.activeOwner = nil
                }
                if record.state != stored.state || record.owner != stored.owner {
                    effects.append(.appStateChanged(record.stateRecord(now: now)))
                }
            }
        }
        for (appID, owner) in currentOwners.sorted(by: { $0.key < $1.key })
        where !owner.isEmpty && !snapshot.appStates.contains(where: { $0.appID == appID }) {
            let policy = effectivePolicy(appID)
            effects += withRecord(appID) { $0.ownerChanged(to: owner, policy: policy, focused: false, now: now) }
        }

        for (appID, route) in snapshot.lastDeliveredRoutes {
            appIDs.insert(appID)
            withRecord(appID) { $0.lastDelivered = route }
        }

        let open = Dictionary(grouping: snapshot.openInvocations.filter { !$0.status.isFinal }, by: \.appID)
        for (appID, invocations) in open.sorted(by: { $0.key < $1.key }) {
            appIDs.insert(appID)
            let ordered = invocations.sorted { ($0.receivedAt, $0.id) < ($1.receivedAt, $1.id) }
            guard var newest = ordered.last else { continue }
            for older in ordered.dropLast() {
                effects.append(.statusChanged(older.moved(to: .superseded, detail: "superseded by \(newest.id)", now: now)))
            }
            if newest.status == .delivering {
                newest.redelivery = true
                newest = newest.moved(to: .pending, detail: "redelivery after restart", now: now)
                effects.append(.statusChanged(newest))
            }
            let pending = newest
            withRecord(appID) { $0.pending = pending }
        }

        for appID in appIDs.sorted() where apps[appID]?.state == .active {
            let policy = effectivePolicy(appID)
            effects += withRecord(appID) { $0.deliverPendingIfPossible(policy: policy, now: now) }
        }
        return effects
    }
}
