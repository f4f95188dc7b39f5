import DeeplinkerCore
import Testing

/// Delivery: acknowledgement, once-only, refusal, time-out, max-attempts, TTL, routes queued behind a delivery.
@Suite struct LifecycleDeliveryTests {
    let app = EngineFixture.app

    @Test func becameActiveDeliversThePendingRouteToTheActivatingOwner() throws {
        var f = EngineFixture()
        try f.receive("a")
        let effects = try f.activate(owner: ":1.77")
        #expect(effects.statuses == ["a:delivering"])
        #expect(effects.deliveries.map(\.destination) == [":1.77"])
        #expect(f.engine.pending(appID: app)?.status == .delivering, "GetPending still reports a route in flight")
    }

    @Test func acknowledgedRouteIsDeliveredAndNeverDeliveredAgain() throws {
        var f = EngineFixture()
        try f.receive("a")
        try f.activate()
        let effects = f.engine.deliveryOutcome(.acknowledged, invocationID: "a", attempt: 1)
        #expect(effects.statuses == ["a:delivered"])
        #expect(f.engine.pending(appID: app) == nil)
        // Later BecameActives deliver nothing until a new invocation arrives.
        _ = try f.engine.lifecycleSignal(.willResignActive, appID: app, sender: EngineFixture.owner)
        #expect(try f.engine.lifecycleSignal(.becameActive, appID: app, sender: EngineFixture.owner).deliveries.isEmpty)
        #expect(try f.engine.lifecycleSignal(.becameActive, appID: app, sender: EngineFixture.owner).deliveries.isEmpty)
        // A repeated acknowledgement changes nothing.
        #expect(f.engine.deliveryOutcome(.acknowledged, invocationID: "a", attempt: 1).isEmpty)
    }

    @Test func refusedRouteStaysPendingUntilTheNextBecameActive() throws {
        var f = EngineFixture()
        try f.receive("a")
        try f.activate()
        let effects = f.engine.deliveryOutcome(.refused("org.example.Error.Busy"), invocationID: "a", attempt: 1)
        #expect(effects.statuses == ["a:pending"])
        #expect(effects.changedInvocations.first?.detail == "org.example.Error.Busy")
        #expect(effects.deliveries.isEmpty, "no immediate retry")
        #expect(f.engine.pending(appID: app)?.status == .pending)
        let retry = try #require(try f.activate().deliveries.first)
        #expect(retry.attempt == 2)
        #expect(retry.redelivery == false, "a refusal is a known outcome")
    }

    @Test func routeFailsAfterMaxAttempts() throws {
        var f = EngineFixture(policy: AppPolicy(maxAttempts: 2))
        try f.receive("a")
        try f.activate()
        #expect(f.engine.deliveryOutcome(.refused("E"), invocationID: "a", attempt: 1).statuses == ["a:pending"])
        try f.activate()
        let effects = f.engine.deliveryOutcome(.refused("E"), invocationID: "a", attempt: 2)
        #expect(effects.statuses == ["a:failed"])
        #expect(effects.changedInvocations.first?.detail == "E (2 attempts)")
        #expect(f.engine.pending(appID: app) == nil)
        #expect(try f.activate().deliveries.isEmpty)
    }

    @Test func retryAfterTimeOutIsMarkedAsRedelivery() throws {
        var f = EngineFixture()
        try f.receive("a")
        try f.activate()
        let effects = f.engine.deliveryOutcome(.timedOut, invocationID: "a", attempt: 1)
        #expect(effects.statuses == ["a:pending"])
        let second = try #require(try f.activate().deliveries.first)
        #expect(second.attempt == 2)
        #expect(second.redelivery)
        // It stays a redelivery even after a later refusal.
        _ = f.engine.deliveryOutcome(.refused("E"), invocationID: "a", attempt: 2)
        #expect(try f.activate().deliveries.first?.redelivery == true)
    }

    @Test func staleFailureOutcomesAreIgnored() throws {
        var f = EngineFixture()
        try f.receive("a")
        try f.activate()
        _ = f.engine.deliveryOutcome(.timedOut, invocationID: "a", attempt: 1)
        try f.activate()
        #expect(f.engine.deliveryOutcome(.refused("late"), invocationID: "a", attempt: 1).isEmpty)
        #expect(f.engine.deliveryOutcome(.timedOut, invocationID: "nope", attempt: 1).isEmpty)
        #expect(f.engine.pending(appID: app)?.status == .delivering)
    }

    @Test func lateAcknowledgementAfterTimeOutDeliversTheRoute() throws {
        var f = EngineFixture()
        try f.receive("a")
        try f.activate()
        _ = f.engine.deliveryOutcome(.timedOut, invocationID: "a", attempt: 1)
        let effects = f.engine.deliveryOutcome(.acknowledged, invocationID: "a", attempt: 1)
        #expect(effects.statuses == ["a:delivered"])
        #expect(try f.activate().deliveries.isEmpty)
    }

    @Test func noOwnerOutcomeDoesNotCountAsAnAttempt() throws {
        var f = EngineFixture(policy: AppPolicy(maxAttempts: 1))
        try f.receive("a")
        try f.activate()
        let effects = f.engine.deliveryOutcome(.noOwner, invocationID: "a", attempt: 1)
        #expect(effects.statuses == ["a:pending"])
        #expect(effects.deliveries.isEmpty)
        #expect(try f.activate().deliveries.first?.attempt == 1)
    }

    @Test func pendingRouteOlderThanTTLExpiresOnBecameActive() throws {
        var f = EngineFixture(policy: AppPolicy(pendingTTL: .seconds(600)))
        try f.receive("a")
        f.clock.advance(.seconds(601))
        let effects = try f.activate()
        #expect(effects.statuses == ["a:expired"])
        #expect(effects.deliveries.isEmpty)
        #expect(f.engine.pending(appID: app) == nil)
    }

    @Test func pendingRouteExactlyAtTTLIsStillDelivered() throws {
        var f = EngineFixture(policy: AppPolicy(pendingTTL: .seconds(600)))
        try f.receive("a")
        f.clock.advance(.seconds(600))
        #expect(try f.activate().deliveries.map(\.invocation.id) == ["a"])
    }

    @Test func nilTTLNeverExpires() throws {
        var f = EngineFixture(policy: AppPolicy(pendingTTL: nil))
        try f.receive("a")
        f.clock.advance(.seconds(86_400 * 365))
        #expect(f.engine.expireStale().isEmpty)
        #expect(try f.activate().deliveries.map(\.invocation.id) == ["a"])
    }

    @Test func expireStaleSweepsOldWaitingRoutesButNotOnesInFlight() throws {
        var f = EngineFixture(policy: AppPolicy(pendingTTL: .seconds(10)))
        try f.receive("a")
        f.clock.advance(.seconds(5))
        #expect(f.engine.expireStale(appID: app).isEmpty)
        f.clock.advance(.seconds(6))
        #expect(f.engine.expireStale(appID: app).statuses == ["a:expired"])
        #expect(f.engine.pending(appID: app) == nil)

        try f.activate()
        try f.receive("b")
        f.clock.advance(.seconds(60))
        #expect(f.engine.expireStale().isEmpty)
        #expect(f.engine.pending(appID: app)?.id == "b")
    }

    @Test func nextExpiryIsWhenTheWaitingRoutePassesItsTTL() throws {
        var f = EngineFixture(policy: AppPolicy(pendingTTL: .seconds(10)))
        #expect(f.engine.nextExpiry() == nil, "nothing waits")
        let start = f.clock.nowMicroseconds()
        try f.receive("a")
        #expect(f.engine.nextExpiry() == start + 10_000_000)
        f.clock.advance(.seconds(10))
        #expect(f.engine.expireStale().isEmpty, "at the deadline it is not older than the TTL yet")
        f.clock.advance(.microseconds(1))
        #expect(f.engine.expireStale().statuses == ["a:expired"])
        #expect(f.engine.nextExpiry() == nil)

        try f.activate()
        try f.receive("b")
        #expect(f.engine.nextExpiry() == nil, "a route in flight does not expire")
    }

    @Test func nextExpiryIsNilWhenTheTTLIsOff() throws {
        var f = EngineFixture(policy: AppPolicy(pendingTTL: nil))
        try f.receive("a")
        #expect(f.engine.pending(appID: app)?.id == "a")
        #expect(f.engine.nextExpiry() == nil)
    }

    @Test func newerRouteWaitsForTheDeliveryInFlightAndFollowsAnAcknowledgement() throws {
        var f = EngineFixture()
        try f.activate()
        try f.receive("a")
        let arrival = try f.receive("b")
        #expect(arrival.statuses == ["b:pending"], "a route in flight is not superseded")
        #expect(arrival.deliveries.isEmpty)
        #expect(f.engine.pending(appID: app)?.id == "b")
        let effects = f.engine.deliveryOutcome(.acknowledged, invocationID: "a", attempt: 1)
        #expect(effects.statuses == ["a:delivered", "b:delivering"])
        #expect(effects.deliveries.map(\.invocation.id) == ["b"])
    }

    @Test func failedDeliveryInFlightIsSupersededByTheNewerRoute() throws {
        var f = EngineFixture()
        try f.activate()
        try f.receive("a")
        try f.receive("b")
        let effects = f.engine.deliveryOutcome(.refused("E"), invocationID: "a", attempt: 1)
        #expect(effects.statuses == ["a:superseded", "b:delivering"])
        #expect(effects.changedInvocations.first?.detail == "superseded by b")
    }

    @Test func thirdRouteSupersedesTheQueuedOneWhileInFlight() throws {
        var f = EngineFixture()
        try f.activate()
        try f.receive("a")
        try f.receive("b")
        #expect(try f.receive("c").statuses == ["b:superseded", "c:pending"])
        #expect(f.engine.deliveryOutcome(.acknowledged, invocationID: "a", attempt: 1).statuses == ["a:delivered", "c:delivering"])
    }

    @Test func queuedRouteWaitsIfTheAppIsNoLongerActive() throws {
        var f = EngineFixture()
        try f.activate()
        try f.receive("a")
        try f.receive("b")
        _ = try f.engine.lifecycleSignal(.didEnterBackground, appID: app, sender: EngineFixture.owner)
        #expect(f.engine.deliveryOutcome(.acknowledged, invocationID: "a", attempt: 1).statuses == ["a:delivered"])
        #expect(try f.activate().deliveries.map(\.invocation.id) == ["b"])
    }

    @Test func discardWhileInFlightDiscardsOnFailure() throws {
        var f = EngineFixture()
        try f.activate()
        try f.receive("a")
        let result = f.engine.discardPending(appID: app)
        #expect(result.discarded)
        #expect(result.effects.isEmpty)
        #expect(f.engine.pending(appID: app) == nil)
        #expect(f.engine.deliveryOutcome(.timedOut, invocationID: "a", attempt: 1).statuses == ["a:discarded"])
        #expect(try f.activate().deliveries.isEmpty)
    }

    @Test func discardWhileInFlightStillRecordsAnAcknowledgement() throws {
        var f = EngineFixture()
        try f.activate()
        try f.receive("a")
        _ = f.engine.discardPending(appID: app)
        #expect(f.engine.deliveryOutcome(.acknowledged, invocationID: "a", attempt: 1).statuses == ["a:delivered"])
    }

    @Test func signalDeliveryNeedsNoOwner() throws {
        var f = EngineFixture(policy: AppPolicy(lifecycleSenders: .any, delivery: .signal))
        try f.receive("a")
        let effects = try f.engine.setAppState(.active, appID: app, sender: ":1.99")
        let delivery = try #require(effects.deliveries.first)
        #expect(delivery.destination == nil)
        #expect(delivery.mode == .signal)
    }

    @Test func deliveryOutcomeWithAppIDMatchesTheSearchingForm() throws {
        var f = EngineFixture()
        try f.activate()
        try f.receive("a")
        #expect(f.engine.deliveryOutcome(.acknowledged, appID: app, invocationID: "a", attempt: 1).statuses == ["a:delivered"])
    }
}
