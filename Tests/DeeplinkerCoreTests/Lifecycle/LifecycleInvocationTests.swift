import DeeplinkerCore
import Testing

/// Admission of invocations: pending, launch, supersede, de-duplication, rejection, restore.
@Suite struct LifecycleInvocationTests {
    let app = EngineFixture.app

    @Test func invocationForNotRunningAppBecomesPendingAndLaunchesIt() throws {
        var f = EngineFixture()
        let effects = try f.receive("a")
        #expect(effects.statuses == ["a:pending"])
        #expect(effects.launches == [app])
        #expect(effects.deliveries.isEmpty)
        #expect(f.engine.pending(appID: app)?.id == "a")
    }

    @Test func invocationForInactiveAppWaitsWithoutLaunch() throws {
        var f = EngineFixture()
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: EngineFixture.owner)
        let effects = try f.receive("a")
        #expect(effects.statuses == ["a:pending"])
        #expect(effects.launches.isEmpty)
        #expect(effects.deliveries.isEmpty)
    }

    @Test func invocationForActiveAppIsDeliveredAtOnceToTheOwner() throws {
        var f = EngineFixture()
        try f.activate()
        let effects = try f.receive("a")
        #expect(effects.statuses == ["a:pending", "a:delivering"])
        let delivery = try #require(effects.deliveries.first)
        #expect(delivery.invocation.id == "a")
        #expect(delivery.destination == EngineFixture.owner)
        #expect(delivery.attempt == 1)
        #expect(delivery.redelivery == false)
        #expect(delivery.timeout == .seconds(5))
        #expect(effects.launches.isEmpty)
    }

    @Test func unknownAppIsRefused() {
        var f = EngineFixture()
        var request = EngineFixture.request("a")
        request.appID = "org.example.Nope"
        #expect(throws: DeeplinkerError.unknownApp("org.example.Nope")) { try f.engine.receive(request) }
    }

    @Test func newerInvocationSupersedesTheOlderPendingOne() throws {
        var f = EngineFixture()
        try f.receive("a")
        f.clock.advance(.seconds(1))
        let effects = try f.receive("b")
        #expect(effects.statuses == ["a:superseded", "b:pending"])
        #expect(effects.changedInvocations.first?.detail == "superseded by b")
        #expect(f.engine.pending(appID: app)?.id == "b")
        let delivered = try f.activate().deliveries
        #expect(delivered.map(\.invocation.id) == ["b"])
    }

    @Test func repeatWithinDedupeWindowReturnsTheFirstAndCreatesNothing() throws {
        var f = EngineFixture(policy: AppPolicy(dedupeWindow: .seconds(2)))
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: EngineFixture.owner)
        var first = EngineFixture.request("a", key: "notification:42")
        first.launchKind = "notification"
        _ = try f.engine.receive(first)
        f.clock.advance(.milliseconds(1999))
        let repeated = try f.engine.receive(EngineFixture.request("b", target: "home", key: "notification:42"))
        #expect(repeated.isDuplicate)
        #expect(repeated.invocation.id == "a")
        #expect(repeated.invocation.route?.target == "recipe")
        #expect(repeated.invocation.launchKind == "notification")
        #expect(repeated.effects.isEmpty)
        #expect(f.engine.pending(appID: app)?.id == "a")
        #expect(f.engine.duplicate(of: "notification:42", appID: app)?.id == "a")
    }

    @Test func repeatOfAnAlreadyDeliveredInvocationIsStillDeduplicated() throws {
        var f = EngineFixture()
        try f.activate()
        let delivery = try #require(try f.receive("a", key: "k").deliveries.first)
        _ = f.engine.deliveryOutcome(.acknowledged, invocationID: "a", attempt: delivery.attempt)
        let repeated = try f.engine.receive(EngineFixture.request("b", key: "k"))
        #expect(repeated.isDuplicate)
        #expect(repeated.invocation.id == "a")
        #expect(repeated.effects.deliveries.isEmpty)
    }

    @Test func repeatAfterTheWindowCreatesANewInvocation() throws {
        var f = EngineFixture(policy: AppPolicy(dedupeWindow: .seconds(2)))
        try f.receive("a", key: "k")
        f.clock.advance(.seconds(2))
        #expect(f.engine.duplicate(of: "k", appID: app) == nil)
        let admission = try f.engine.receive(EngineFixture.request("b", key: "k"))
        #expect(!admission.isDuplicate)
        #expect(admission.invocation.id == "b")
        #expect(admission.effects.statuses == ["a:superseded", "b:pending"])
        // The new invocation now anchors the window.
        f.clock.advance(.seconds(1))
        #expect(try f.engine.receive(EngineFixture.request("c", key: "k")).invocation.id == "b")
    }

    @Test func zeroDedupeWindowDisablesDeduplication() throws {
        var f = EngineFixture(policy: AppPolicy(dedupeWindow: .zero))
        try f.receive("a", key: "k")
        let admission = try f.engine.receive(EngineFixture.request("b", key: "k"))
        #expect(!admission.isDuplicate)
        #expect(f.engine.duplicate(of: "k", appID: app) == nil)
    }

    @Test func differentKeysAreNotDuplicates() throws {
        var f = EngineFixture()
        try f.receive("a", key: "k1")
        #expect(try !f.engine.receive(EngineFixture.request("b", key: "k2")).isDuplicate)
    }

    @Test func duplicateForNotRunningAppLaunchesItAgainOnlyAfterTheRelaunchInterval() throws {
        var f = EngineFixture(policy: AppPolicy(dedupeWindow: .seconds(60)))
        #expect(try f.receive("a", key: "k").launches == [app])
        let repeated = try f.engine.receive(EngineFixture.request("b", key: "k"))
        #expect(repeated.isDuplicate)
        #expect(repeated.effects.isEmpty)
        f.clock.advance(.seconds(10))
        let later = try f.engine.receive(EngineFixture.request("c", key: "k"))
        #expect(later.isDuplicate)
        var summons = Summons(appID: app, invocationID: "a")
        summons.launchRequestedAt = f.clock.nowMicroseconds()
        #expect(later.effects == [.launch(summons)])
    }

    @Test func burstOfInvocationsForAStartingAppLaunchesItOnce() throws {
        var f = EngineFixture()
        #expect(try f.receive("a").launches == [app])
        f.clock.advance(.seconds(3))
        #expect(try f.receive("b").launches.isEmpty)
        #expect(try f.engine.summon(appID: app).isEmpty)
        f.clock.advance(.seconds(7))
        #expect(try f.receive("c").launches == [app], "an app that did not start is retried after 10 s")
    }

    @Test func appThatRanAndExitedIsLaunchedAgainAtOnce() throws {
        var f = EngineFixture()
        #expect(try f.receive("a").launches == [app])
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: nil)
        #expect(try f.receive("b").launches == [app])
    }

    @Test func dedupeKeyReusedAfterTheWindowBelongsToTheNewInvocation() throws {
        var f = EngineFixture(policy: AppPolicy(dedupeWindow: .seconds(2)))
        try f.receive("a", key: "k")
        f.clock.advance(.seconds(3))
        #expect(try !f.engine.receive(EngineFixture.request("b", key: "k")).isDuplicate)
        f.clock.advance(.milliseconds(500))
        // Pruning a's expired entry must not drop b's, which reuses the key.
        let repeated = try f.engine.receive(EngineFixture.request("c", key: "k"))
        #expect(repeated.isDuplicate)
        #expect(repeated.invocation.id == "b")
    }

    @Test func expiredKeysArePrunedOldestFirst() throws {
        var f = EngineFixture(policy: AppPolicy(dedupeWindow: .seconds(2)))
        for index in 0..<3_000 {
            try f.receive("i\(index)", key: "k\(index)")
            f.clock.advance(.milliseconds(1))
        }
        // Now is 3,000 ms: k0…k1000 arrived 2 s or more before; k1001… did not.
        #expect(f.engine.duplicate(of: "k1000", appID: app) == nil)
        #expect(f.engine.duplicate(of: "k1001", appID: app)?.id == "i1001")
        f.clock.advance(.seconds(2))
        try f.receive("last", key: "k2999")
        #expect(f.engine.duplicate(of: "k2999", appID: app)?.id == "last")
        #expect(f.engine.duplicate(of: "k2998", appID: app) == nil)
    }

    @Test func rejectedInvocationRecordsTheFullErrorNameAndLeavesPendingAlone() throws {
        var f = EngineFixture()
        try f.receive("a")
        let (invocation, effects) = try f.engine.reject(
            id: "r", appID: app, source: .url, error: .noRoute("x://y", reason: "no pattern"))
        #expect(invocation.status == .rejected)
        #expect(invocation.detail == "org.deeplinker.Error.NoRoute")
        #expect(invocation.route == nil)
        #expect(effects == [.statusChanged(invocation)])
        #expect(f.engine.pending(appID: app)?.id == "a")
        #expect(throws: DeeplinkerError.unknownApp("x")) {
            try f.engine.reject(id: "r2", appID: "x", source: .url, error: .noRoute("x", reason: ""))
        }
    }

    @Test func summonWithoutARouteLaunchesANotRunningAppAndRaisesARunningOne() throws {
        var f = EngineFixture()
        let token = ["activation-token": "tok", "desktop-startup-id": "sid"]
        var launch = Summons(appID: app, activationToken: "tok", desktopStartupID: "sid")
        launch.launchRequestedAt = f.clock.nowMicroseconds()
        #expect(try f.engine.summon(appID: app, platformData: token) == [.launch(launch)])
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        #expect(try f.engine.summon(appID: app, platformData: token)
            == [.raise(Summons(appID: app, activationToken: "tok", desktopStartupID: "sid", owner: ":1.5"))])
        _ = try f.engine.lifecycleSignal(.becameActive, appID: app, sender: ":1.5")
        #expect(try f.engine.summon(appID: app).isEmpty, "an active app is neither launched nor raised")
    }

    @Test func invocationForARunningInactiveAppRaisesItWithTheTokenAndStaysPending() throws {
        var f = EngineFixture()
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        let request = InvocationRequest(
            id: "a", appID: app, route: Route(target: "recipe", parameters: [:], source: .url),
            platformData: ["activation-token": "tok", "deeplinker.url": "bestrecipes://recipe"])
        let effects = try f.engine.receive(request).effects
        #expect(effects.raises == [Summons(appID: app, invocationID: "a", url: "bestrecipes://recipe", activationToken: "tok", owner: ":1.5")])
        #expect(effects.deliveries.isEmpty)
        #expect(effects.launches.isEmpty)
        #expect(f.engine.pending(appID: app)?.id == "a")
    }

    @Test func backgroundAppIsRaisedButNotWhenRaiseIsOff() throws {
        var on = EngineFixture()
        _ = on.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        _ = try on.engine.lifecycleSignal(.didEnterBackground, appID: app, sender: ":1.5")
        #expect(on.engine.state(of: app) == .background)
        #expect(try on.receive("a").raises.map(\.owner) == [":1.5"])

        var off = EngineFixture(policy: AppPolicy(raise: false))
        _ = off.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        #expect(try off.receive("a").raises.isEmpty)
        #expect(off.engine.pending(appID: app)?.id == "a")
    }

    @Test func activeAppIsNotRaisedItGetsTheRoute() throws {
        var f = EngineFixture()
        try f.activate()
        let effects = try f.receive("a")
        #expect(effects.raises.isEmpty)
        #expect(effects.deliveries.count == 1)
    }

    @Test func restoreRouteIsTheLastDeliveredRouteWithSourceRestore() throws {
        var f = EngineFixture(policy: AppPolicy(restoreLastRoute: true))
        #expect(f.engine.restoreRoute(appID: app) == nil)
        try f.activate()
        _ = try f.receive("a", target: "recipe")
        _ = f.engine.deliveryOutcome(.acknowledged, invocationID: "a", attempt: 1)
        let route = try #require(f.engine.restoreRoute(appID: app))
        #expect(route == Route(target: "recipe", parameters: ["id": "a"], source: .restore))
        #expect(f.engine.lastDeliveredRoute(appID: app)?.source == .url)
    }

    @Test func restoreRouteNeedsRestoreLastRoute() throws {
        var f = EngineFixture(policy: AppPolicy(restoreLastRoute: false))
        try f.activate()
        _ = try f.receive("a")
        _ = f.engine.deliveryOutcome(.acknowledged, invocationID: "a", attempt: 1)
        #expect(f.engine.lastDeliveredRoute(appID: app) != nil)
        #expect(f.engine.restoreRoute(appID: app) == nil)
    }

    @Test func discardPendingDiscardsTheWaitingRoute() throws {
        var f = EngineFixture()
        #expect(f.engine.discardPending(appID: app).discarded == false)
        try f.receive("a")
        let result = f.engine.discardPending(appID: app)
        #expect(result.discarded)
        #expect(result.effects.statuses == ["a:discarded"])
        #expect(f.engine.pending(appID: app) == nil)
        #expect(try f.activate().deliveries.isEmpty)
        #expect(f.engine.discardPending(appID: app).discarded == false)
    }
}

/// Invocations whose creation could not be stored (StorageFailed) are forgotten by the engine.
struct LifecycleStorageFailureTests {
    let app = EngineFixture.app

    @Test func anUnstoredDeliveryInFlightNoLongerBlocksTheNextRoute() throws {
        var f = EngineFixture()
        try f.activate()
        let lost = try f.engine.receive(EngineFixture.request("a", key: "k"))
        #expect(lost.effects.deliveries.map(\.invocation.id) == ["a"])
        // Its commit failed: nothing was sent, the caller got StorageFailed.
        #expect(f.engine.forgetUnstored(lost.effects.changedInvocations).isEmpty)
        #expect(f.engine.pending(appID: app) == nil)
        let next = try f.engine.receive(EngineFixture.request("b", key: "k"))
        #expect(!next.isDuplicate, "a refused invocation does not answer repeats")
        #expect(next.effects.deliveries.map(\.invocation.id) == ["b"], "delivered at once, not behind a phantom")
    }

    @Test func anUnstoredPendingRouteIsNoLongerPending() throws {
        var f = EngineFixture()
        let lost = try f.engine.receive(EngineFixture.request("a"))
        _ = f.engine.forgetUnstored(lost.effects.changedInvocations)
        #expect(f.engine.pending(appID: app) == nil)
        #expect(try f.activate().deliveries.isEmpty)
    }

    @Test func theStoredRouteAnUnstoredOneSupersededIsPendingAgain() throws {
        var f = EngineFixture()
        try f.receive("stored")
        let lost = try f.engine.receive(EngineFixture.request("lost"))
        #expect(lost.effects.statuses == ["stored:superseded", "lost:pending"])
        _ = f.engine.forgetUnstored(lost.effects.changedInvocations)
        #expect(f.engine.pending(appID: app)?.id == "stored")
        #expect(f.engine.pending(appID: app)?.status == .pending)
        #expect(try f.activate().deliveries.map(\.invocation.id) == ["stored"])
    }
}
