extension EngineAppRecord {
    /// The first invocation with `key` if it arrived less than `window` before `now`.
    func duplicate(of key: String, window: Duration, now: Int64) -> Invocation? {
        guard let first = recent[key] else { return nil }
        return now - first.receivedAt < window.engineMicroseconds ? first : nil
    }

    /// Forgets dedupe entries that have left the window.
    mutating func pruneRecent(window: Duration, now: Int64) {
        let limit = window.engineMicroseconds
        recent = recent.filter { now - $0.value.receivedAt < limit }
    }

    /// Makes `invocation` the app's pending deeplink: an older waiting one is superseded, then it is
    /// delivered at once if the app is active and idle, or the app is launched if it is not running.
    ///
    /// A route whose delivery is in flight is not superseded here: it was already sent, so its
    /// outcome decides (acknowledged → `delivered`; failed → `superseded` by this one).
    mutating func admit(_ invocation: Invocation, policy: AppPolicy, now: Int64) -> [EngineEffect] {
        var effects: [EngineEffect] = []
        if let older = pending {
            effects.append(.statusChanged(older.moved(to: .superseded, detail: "superseded by \(invocation.id)", now: now)))
        }
        if let key = invocation.dedupeKey, policy.dedupeWindow > .zero {
            recent[key] = invocation
        }
        pending = invocation
        effects.append(.statusChanged(invocation))
        if state == .notRunning {
            effects.append(.launch(appID: appID))
        }
        return effects + deliverPendingIfPossible(policy: policy, now: now)
    }

    /// `DiscardPending`: the waiting route becomes `discarded`; one in flight is discarded if its
    /// delivery fails (if the app acknowledges it, it was delivered). Returns whether anything was pending.
    mutating func discard(now: Int64) -> (discarded: Bool, effects: [EngineEffect]) {
        var effects: [EngineEffect] = []
        var found = false
        if let waiting = pending {
            pending = nil
            found = true
            effects.append(.statusChanged(waiting.moved(to: .discarded, detail: "discarded", now: now)))
        }
        if var flight = inFlight, !flight.discardRequested {
            flight.discardRequested = true
            inFlight = flight
            found = true
        }
        return (found, effects)
    }

    /// Expires the waiting route if it is older than `pending-ttl` (a route in flight is left alone).
    mutating func expireStale(policy: AppPolicy, now: Int64) -> [EngineEffect] {
        guard let waiting = pending, waiting.isExpired(ttl: policy.pendingTTL, now: now) else { return [] }
        pending = nil
        return [.statusChanged(waiting.moved(to: .expired, detail: "older than pending-ttl", now: now))]
    }
}
