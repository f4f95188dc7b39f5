extension EngineAppRecord {
    /// The first invocation with `key` if it arrived less than `window` before `now`.
    func duplicate(of key: String, window: Duration, now: Int64) -> Invocation? {
        guard let first = recent[key] else { return nil }
        return now - first.receivedAt < window.engineMicroseconds ? first : nil
    }

    /// Forgets dedupe entries that have left the window, oldest first; amortised O(1) per invocation.
    mutating func pruneRecent(window: Duration, now: Int64) {
        let limit = window.engineMicroseconds
        while recentHead < recentOrder.count, now - recentOrder[recentHead].receivedAt >= limit {
            let expired = recentOrder[recentHead]
            // A later invocation with the same key replaced it after the window: keep that one.
            if recent[expired.key]?.receivedAt == expired.receivedAt { recent[expired.key] = nil }
            recentHead += 1
        }
        if recentHead == recentOrder.count {
            recentOrder.removeAll(keepingCapacity: true)
            recentHead = 0
        } else if recentHead >= 1024, recentHead * 2 >= recentOrder.count {
            recentOrder.removeFirst(recentHead)
            recentHead = 0
        }
    }

    /// Makes `invocation` the first one seen for `key` in the window.
    mutating func remember(_ invocation: Invocation, key: String) {
        recent[key] = invocation
        recentOrder.append(RecentKey(key: key, receivedAt: invocation.receivedAt))
    }

    /// ``remember(_:key:)`` for an invocation that may be older than keys already kept (one read
    /// from the store): placed by receipt time, so pruning from the front stays in order.
    mutating func rememberInOrder(_ invocation: Invocation, key: String) {
        recent[key] = invocation
        var index = recentOrder.endIndex
        while index > recentHead, recentOrder[index - 1].receivedAt > invocation.receivedAt { index -= 1 }
        recentOrder.insert(RecentKey(key: key, receivedAt: invocation.receivedAt), at: index)
    }

    /// Brings the app to the user for an invocation: `.launch` if it is not running and no launch
    /// was requested in the last ``relaunchInterval`` (a burst of invocations for a starting app
    /// launches it once); `.raise` to its owner if it runs but is not active and `raise` is on. A
    /// `ready = "name"` app counts as active whenever it runs, so it is raised then too (before its
    /// route goes out: `Activate`, then `ActivateAction`).
    ///
    /// An `open` app is never raised for a route (`Open` presents it; an editor would open an
    /// empty document for `Activate`) and is launched without the URL (its route arrives by `Open`).
    mutating func summon(_ summons: Summons, policy: AppPolicy, now: Int64) -> [EngineEffect] {
        switch state {
        case .notRunning:
            if let last = launchRequestedAt, now - last < Self.relaunchInterval.engineMicroseconds { return [] }
            launchRequestedAt = now
            launchWatched = now
            var launch = summons
            launch.launchRequestedAt = now
            if policy.delivery.opensURIs { launch.url = nil }
            return [.launch(launch)]
        case _ where policy.delivery.opensURIs && summons.invocationID != nil:
            return []
        case .inactive, .background:
            guard policy.raise, let owner else { return [] }
            var raise = summons
            raise.owner = owner
            return [.raise(raise)]
        case .active:
            guard policy.ready == .name, policy.raise, let owner else { return [] }
            var raise = summons
            raise.owner = owner
            return [.raise(raise)]
        }
    }

    /// The launch requested at `requestedAt` did not take (the app is not running): the waiting
    /// route's `detail` says why, and the next invocation launches again (once; nothing retries on
    /// its own). Ignored when the app runs or a later launch was requested.
    mutating func launchDidNotTake(requestedAt: Int64, reason: String, now: Int64) -> [EngineEffect] {
        guard state == .notRunning, launchWatched == requestedAt else { return [] }
        launchWatched = nil
        launchRequestedAt = nil
        guard let waiting = pending else { return [] }
        let updated = waiting.moved(to: .pending, detail: LaunchFailure.detail(reason), now: now)
        pending = updated
        return [.statusChanged(updated)]
    }

    /// Makes `invocation` the app's pending deeplink: an older waiting one is superseded, then it is
    /// delivered at once if the app is active and idle; else the app is launched or raised.
    ///
    /// A route whose delivery is in flight is not superseded here: it was already sent, so its
    /// outcome decides (acknowledged → `delivered`; failed → `superseded` by this one).
    mutating func admit(_ invocation: Invocation, policy: AppPolicy, now: Int64) -> [EngineEffect] {
        var effects: [EngineEffect] = []
        if let older = pending {
            effects.append(.statusChanged(older.moved(to: .superseded, detail: "superseded by \(invocation.id)", now: now)))
        }
        if let key = invocation.dedupeKey, policy.dedupeWindow > .zero {
            remember(invocation, key: key)
        }
        pending = invocation
        effects.append(.statusChanged(invocation))
        effects += summon(Summons(appID: appID, invocationID: invocation.id, platformData: invocation.platformData), policy: policy, now: now)
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
