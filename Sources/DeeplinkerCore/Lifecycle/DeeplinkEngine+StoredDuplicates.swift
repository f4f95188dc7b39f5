/// De-duplication across a restart (SPEC §6) without loading history at start: the engine knows
/// every invocation since ``DeeplinkEngine/startedAt``; for a key whose window reaches back before
/// that, the daemon asks the store and hands the answer in before ``DeeplinkEngine/receive(_:)``.
extension DeeplinkEngine {
    /// The receipt time (engine µs, inclusive) from which the store must be asked for the first
    /// invocation with `key`, or nil when the engine's own memory answers: it holds a repeat in the
    /// window, the app does not de-duplicate, or the window starts after the engine did.
    public func storedDuplicateSince(appID: String, key: String) -> Int64? {
        guard let policy = policies[appID], policy.dedupeWindow > .zero else { return nil }
        let now = clock.nowMicroseconds()
        let (windowStart, overflow) = now.subtractingReportingOverflow(policy.dedupeWindow.engineMicroseconds)
        let since = overflow ? Int64.min : windowStart + 1
        guard since <= startedAt else { return nil }
        if apps[appID]?.duplicate(of: key, window: policy.dedupeWindow, now: now) != nil { return nil }
        return since
    }

    /// Whether a lookup in the store is needed before `key` is received for `appID`.
    public func needsStoredDuplicate(appID: String, key: String) -> Bool {
        storedDuplicateSince(appID: appID, key: key) != nil
    }

    /// Takes over `invocation`, found in the store by the daemon, as the first one seen for its
    /// dedupe key; ignored if it has no key, was rejected, or is older than one the engine has.
    public mutating func rememberStored(_ invocation: Invocation) {
        guard let key = invocation.dedupeKey, invocation.status != .rejected,
            let policy = policies[invocation.appID], policy.dedupeWindow > .zero
        else { return }
        withRecord(invocation.appID) { record in
            if let kept = record.recent[key], kept.receivedAt >= invocation.receivedAt { return }
            record.rememberInOrder(invocation, key: key)
        }
    }
}
