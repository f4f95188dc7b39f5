extension EngineAppRecord {
    /// Starts delivering the waiting route if the app is active and nothing is in flight.
    ///
    /// A route older than `pending-ttl` expires instead. For `activate-action` a route needs a
    /// destination: the owner at the time the app became active, or for `lifecycle-senders = any`
    /// the owner now; without one it simply stays pending (no attempt is counted).
    mutating func deliverPendingIfPossible(policy: AppPolicy, now: Int64) -> [EngineEffect] {
        guard state == .active, inFlight == nil, let waiting = pending else { return [] }
        if waiting.isExpired(ttl: policy.pendingTTL, now: now) {
            pending = nil
            return [.statusChanged(waiting.moved(to: .expired, detail: "older than pending-ttl", now: now))]
        }
        let destination: String?
        if policy.delivery.needsOwner {
            destination = policy.lifecycleSenders == .any ? owner : activeOwner
            guard destination != nil else { return [] }
        } else {
            destination = nil
        }
        return send(waiting, to: destination, timeout: policy.deliveryTimeout, policy: policy, now: now)
    }

    /// Moves the waiting route `waiting` in flight and orders its delivery to `destination`.
    private mutating func send(
        _ waiting: Invocation, to destination: String?, timeout: Duration, startsApp: Bool = false, policy: AppPolicy, now: Int64
    ) -> [EngineEffect] {
        var delivering = waiting.moved(to: .delivering, detail: "", now: now)
        delivering.attempts += 1
        pending = nil
        inFlight = InFlightDelivery(invocation: delivering, attempt: delivering.attempts)
        var attempt = DeliveryAttempt(
            invocation: delivering,
            destination: destination,
            redelivery: delivering.redelivery,
            attempt: delivering.attempts,
            mode: policy.delivery,
            timeout: timeout,
            declaredParameters: delivering.route.flatMap { policy.targetParameters[$0.target] } ?? []
        )
        attempt.startsApp = startsApp
        return [.statusChanged(delivering), .deliver(attempt)]
    }

    /// Hands the waiting route of an `open` app that is not running to its well-known name by an
    /// `Open` that starts it (SPEC §6, `desktop`: the delivery's own `Open` starts the app). The
    /// reply may wait for the app's start-up: at least `startTimeout`.
    mutating func deliverByStarting(policy: AppPolicy, startTimeout: Duration, now: Int64) -> [EngineEffect] {
        guard state == .notRunning, policy.delivery.opensURIs, inFlight == nil, let waiting = pending else { return [] }
        if waiting.isExpired(ttl: policy.pendingTTL, now: now) {
            pending = nil
            return [.statusChanged(waiting.moved(to: .expired, detail: "older than pending-ttl", now: now))]
        }
        return send(waiting, to: appID, timeout: max(policy.deliveryTimeout, startTimeout), startsApp: true, policy: policy, now: now)
    }

    /// Delivers the waiting route only if it was never attempted: a newer route that queued behind a
    /// delivery in flight goes out at once, while a refused one waits for the next `BecameActive`.
    mutating func deliverFreshPendingIfPossible(policy: AppPolicy, now: Int64) -> [EngineEffect] {
        guard let waiting = pending, waiting.attempts == 0 else { return [] }
        return deliverPendingIfPossible(policy: policy, now: now)
    }

    /// Applies the outcome of attempt `attempt` of invocation `invocationID`.
    ///
    /// An acknowledgement is accepted for any attempt of the invocation still open (a late reply after a
    /// time-out proves the app handled it); a failure is accepted only for the attempt in flight.
    mutating func resolve(
        _ outcome: DeliveryOutcome,
        invocationID: String,
        attempt: Int,
        policy: AppPolicy,
        now: Int64
    ) -> [EngineEffect] {
        if let flight = inFlight, flight.invocation.id == invocationID {
            if outcome == .acknowledged {
                inFlight = nil
                return acknowledge(flight.invocation, now: now)
                    + deliverFreshPendingIfPossible(policy: policy, now: now)
            }
            guard flight.attempt == attempt else { return [] }
            inFlight = nil
            let effects = fail(flight, outcome: outcome, policy: policy, now: now)
            // Only a newer route goes out now; the failed one itself waits for the next BecameActive.
            guard pending != nil, pending?.id != invocationID else { return effects }
            return effects + deliverFreshPendingIfPossible(policy: policy, now: now)
        }
        if outcome == .acknowledged, let waiting = pending, waiting.id == invocationID, waiting.attempts > 0 {
            pending = nil
            return acknowledge(waiting, now: now)
        }
        return []
    }

    /// Marks `invocation` delivered and remembers its route for `restore-last-route`.
    private mutating func acknowledge(_ invocation: Invocation, now: Int64) -> [EngineEffect] {
        lastDelivered = invocation.route
        return [.statusChanged(invocation.moved(to: .delivered, detail: "", now: now))]
    }

    /// Settles a failed attempt: superseded by a newer waiting route, discarded on request, failed
    /// after `max-attempts`, else pending again for the next `BecameActive`.
    private mutating func fail(
        _ flight: InFlightDelivery,
        outcome: DeliveryOutcome,
        policy: AppPolicy,
        now: Int64
    ) -> [EngineEffect] {
        var invocation = flight.invocation
        let reason: String
        switch outcome {
        case .acknowledged: return []
        case .refused(let error): reason = error.isEmpty ? "refused" : error
        case .timedOut:
            reason = "delivery timed out"
            invocation.redelivery = true
        case .noOwner:
            reason = "no owner to deliver to"
            invocation.attempts -= 1
        case .undeliverable(let why):
            // Another attempt would meet the same app: fail now, whatever else is waiting.
            return [.statusChanged(invocation.moved(to: .failed, detail: why, now: now))]
        }
        if let newer = pending {
            return [.statusChanged(invocation.moved(to: .superseded, detail: "superseded by \(newer.id)", now: now))]
        }
        if flight.discardRequested {
            return [.statusChanged(invocation.moved(to: .discarded, detail: "discarded", now: now))]
        }
        if invocation.attempts >= max(1, policy.maxAttempts) {
            let detail = "\(reason) (\(invocation.attempts) attempts)"
            return [.statusChanged(invocation.moved(to: .failed, detail: detail, now: now))]
        }
        let waiting = invocation.moved(to: .pending, detail: reason, now: now)
        pending = waiting
        return [.statusChanged(waiting)]
    }
}
