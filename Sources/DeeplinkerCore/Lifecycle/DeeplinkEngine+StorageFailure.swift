extension DeeplinkEngine {
    /// Undoes what a change that could not be stored did to the engine (its caller got
    /// `StorageFailed`: nothing was acknowledged, and nothing stored may be lost). `changes` are the
    /// invocations of its `statusChanged` effects. Invocations it created stop being the pending
    /// deeplink or the delivery in flight and stop answering de-duplicated repeats (an active app
    /// would otherwise wait forever behind a delivery never sent); a stored route it superseded is
    /// the pending deeplink again. Returns what that frees to happen.
    public mutating func forgetUnstored(_ changes: [Invocation]) -> [EngineEffect] {
        let now = clock.nowMicroseconds()
        var effects: [EngineEffect] = []
        for (appID, invocations) in Dictionary(grouping: changes, by: \.appID) where apps[appID] != nil {
            let created = Set(invocations.filter { $0.revision == 0 }.map(\.id))
            let superseded = invocations.filter { $0.revision > 0 && $0.status == .superseded && !created.contains($0.id) }
            let policy = effectivePolicy(appID)
            effects += withRecord(appID) { record in
                if let pending = record.pending, created.contains(pending.id) { record.pending = nil }
                if let flight = record.inFlight, created.contains(flight.invocation.id) { record.inFlight = nil }
                for (key, first) in record.recent where created.contains(first.id) { record.recent[key] = nil }
                if record.pending == nil, let newest = superseded.max(by: { $0.receivedAt < $1.receivedAt }),
                   record.inFlight?.invocation.id != newest.id {
                    var restored = newest
                    restored.status = .pending
                    restored.detail = ""
                    restored.revision -= 1
                    record.pending = restored
                }
                return record.deliverPendingIfPossible(policy: policy, now: now)
            }
        }
        return effects
    }
}
