extension DeeplinkEngine {
    /// Undoes what a change that could not be stored did to the engine (its caller got
    /// `StorageFailed`: nothing was acknowledged, and nothing stored may be lost). `changes` are the
    /// invocations of its `statusChanged` effects. Invocations it created stop being the pending
    /// deeplink or the delivery in flight and stop answering de-duplicated repeats (an active app
    /// would otherwise wait forever behind a delivery never sent); a stored route it superseded is
    /// the pending deeplink again, and so is a stored route it started delivering (that delivery
    /// was never sent). `appStates` are the stored states of the apps whose state or owner it
    /// changed (SPEC §6: memory changes only with its commit): each app is put back to its record.
    /// Returns what that frees to happen.
    public mutating func forgetUnstored(_ changes: [Invocation], appStates: [AppStateRecord] = []) -> [EngineEffect] {
        let now = clock.nowMicroseconds()
        var effects: [EngineEffect] = []
        let byApp = Dictionary(grouping: changes, by: \.appID)
        let states = Dictionary(appStates.map { ($0.appID, $0) }, uniquingKeysWith: { _, last in last })
        for appID in Set(byApp.keys).union(states.keys).sorted() where apps[appID] != nil {
            let invocations = byApp[appID] ?? []
            let created = Set(invocations.filter { $0.revision == 0 }.map(\.id))
            let superseded = invocations.filter { $0.revision > 0 && $0.status == .superseded && !created.contains($0.id) }
            let unsent = invocations.last { $0.status == .delivering && !created.contains($0.id) }
            let policy = effectivePolicy(appID)
            effects += withRecord(appID) { record in
                if let stored = states[appID] { record.restore(stored) }
                if let pending = record.pending, created.contains(pending.id) { record.pending = nil }
                if let flight = record.inFlight, created.contains(flight.invocation.id) { record.inFlight = nil }
                for (key, first) in record.recent where created.contains(first.id) { record.recent[key] = nil }
                var freed: [EngineEffect] = []
                if let unsent, let flight = record.inFlight, flight.invocation.id == unsent.id, flight.attempt == unsent.attempts {
                    record.inFlight = nil
                    freed += record.unsend(flight, now: now)
                }
                if record.pending == nil, let newest = superseded.max(by: { $0.receivedAt < $1.receivedAt }),
                   record.inFlight?.invocation.id != newest.id {
                    var restored = newest
                    restored.status = .pending
                    restored.detail = ""
                    restored.revision -= 1
                    record.pending = restored
                }
                return freed + record.deliverPendingIfPossible(policy: policy, now: now)
            }
        }
        return effects
    }
}

extension EngineAppRecord {
    /// Puts the state and owner back to a stored record (its write of a newer one was refused).
    mutating func restore(_ stored: AppStateRecord) {
        state = stored.state
        owner = stored.owner
        activeOwner = stored.state == .active ? stored.owner : nil
    }

    /// A delivery whose `delivering` was never stored (so never sent) is the route it was before:
    /// pending again, unless a newer route waits, which then supersedes it (stored as such).
    mutating func unsend(_ flight: InFlightDelivery, now: Int64) -> [EngineEffect] {
        var waiting = flight.invocation
        waiting.status = .pending
        waiting.revision -= 1
        waiting.attempts -= 1
        guard let newer = pending else {
            pending = waiting
            return []
        }
        return [.statusChanged(waiting.moved(to: .superseded, detail: "superseded by \(newer.id)", now: now))]
    }
}
