extension DeeplinkEngine {
    /// Reports the outcome of attempt `attempt` of a ``DeliveryAttempt``.
    ///
    /// Acknowledged → `delivered` (never delivered again; a late acknowledgement after a time-out also
    /// counts). Refused, timed out or no owner → `pending` again until the app's next `BecameActive`,
    /// `failed` after `max-attempts` (a time-out marks later attempts as redeliveries), or `superseded`
    /// when a newer route arrived meanwhile (which then goes out at once if the app is still active).
    /// Outcomes for unknown invocations or stale attempts are ignored.
    public mutating func deliveryOutcome(
        _ outcome: DeliveryOutcome,
        invocationID: String,
        attempt: Int
    ) -> [EngineEffect] {
        guard let appID = apps.first(where: { record in
            record.value.inFlight?.invocation.id == invocationID || record.value.pending?.id == invocationID
        })?.key else { return [] }
        return deliveryOutcome(outcome, appID: appID, invocationID: invocationID, attempt: attempt)
    }

    /// Same as ``deliveryOutcome(_:invocationID:attempt:)`` when the app id is at hand (no search).
    public mutating func deliveryOutcome(
        _ outcome: DeliveryOutcome,
        appID: String,
        invocationID: String,
        attempt: Int
    ) -> [EngineEffect] {
        guard apps[appID] != nil else { return [] }
        let policy = effectivePolicy(appID)
        let now = clock.nowMicroseconds()
        return withRecord(appID) {
            $0.resolve(outcome, invocationID: invocationID, attempt: attempt, policy: policy, now: now)
        }
    }
}
