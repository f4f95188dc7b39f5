import DeeplinkerCore
import Testing

/// A launch that does not take is said on the waiting route, and the next invocation launches the
/// app again, once (SPEC §6); an `open` app that the bus can start gets its route by the `Open`
/// that starts it.
@Suite struct LaunchTakingTests {
    let app = EngineFixture.app

    /// The launch order among `effects`.
    static func launch(_ effects: [EngineEffect]) throws -> Summons {
        try #require(effects.compactMap { if case .launch(let summons) = $0 { summons } else { nil } }.first)
    }

    @Test func aLaunchThatDidNotTakeIsSaidOnTheWaitingRoute() throws {
        var f = EngineFixture()
        let summons = try Self.launch(f.receive("a"))
        let requested = try #require(summons.launchRequestedAt)
        let effects = f.engine.launchDidNotTake(appID: app, launchRequestedAt: requested, reason: "/bin/false exited with status 1")
        #expect(effects.statuses == ["a:pending"])
        let detail = try #require(effects.changedInvocations.first?.detail)
        #expect(detail == "waiting on an app that did not start: /bin/false exited with status 1")
        #expect(LaunchFailure.reason(inDetail: detail) == "/bin/false exited with status 1")
        #expect(f.engine.pending(appID: app)?.detail == detail)
    }

    @Test func theNextInvocationLaunchesAgainOnceNotInALoop() throws {
        var f = EngineFixture()
        let requested = try #require(try Self.launch(f.receive("a")).launchRequestedAt)
        // Within the relaunch interval a new invocation waits on the launch already asked for.
        #expect(try f.receive("b").launches.isEmpty)
        _ = f.engine.launchDidNotTake(appID: app, launchRequestedAt: requested, reason: "it exited")
        // Nothing retries on its own: only the next invocation launches again, and only once.
        #expect(f.engine.expireStale().launches.isEmpty)
        #expect(try f.receive("c").launches == [app])
        #expect(try f.receive("d").launches.isEmpty)
    }

    @Test func aStaleOrLateReportChangesNothing() throws {
        var f = EngineFixture()
        let first = try #require(try Self.launch(f.receive("a")).launchRequestedAt)
        // The app started: a late report of its launch is ignored.
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        #expect(f.engine.launchDidNotTake(appID: app, launchRequestedAt: first, reason: "late").isEmpty)
        // It quit before it became active, and a new launch was asked for: only that one counts.
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: nil)
        f.clock.advance(.seconds(1))
        let second = try #require(try Self.launch(f.receive("b")).launchRequestedAt)
        #expect(second != first)
        #expect(f.engine.launchDidNotTake(appID: app, launchRequestedAt: first, reason: "stale").isEmpty)
        #expect(f.engine.launchDidNotTake(appID: app, launchRequestedAt: second, reason: "exited").statuses == ["b:pending"])
    }

    @Test func anAppThatBecameReadyIsNoLongerWatched() throws {
        var f = EngineFixture()
        let requested = try #require(try Self.launch(f.receive("a")).launchRequestedAt)
        try f.activate()
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: nil)
        #expect(f.engine.launchDidNotTake(appID: app, launchRequestedAt: requested, reason: "quit later").isEmpty)
    }

    @Test func anOpenAppIsStartedByTheOpenOfItsRoute() throws {
        var f = EngineFixture(policy: try UndeliverableAndOpenTests.openPolicy("ready = \"focus\""))
        #expect(try f.receive("a").launches == [app])
        let effects = f.engine.deliverByStarting(appID: app, startTimeout: .seconds(25))
        #expect(effects.statuses == ["a:delivering"])
        let attempt = try #require(effects.deliveries.first)
        #expect(attempt.startsApp)
        #expect(attempt.destination == app, "the well-known name, which the bus starts")
        #expect(attempt.timeout == .seconds(25))
        // Its owner appearing (not yet focused) does not send it again; the reply settles it.
        #expect(f.engine.nameOwnerChanged(appID: app, newOwner: ":1.7").deliveries.isEmpty)
        #expect(f.engine.deliveryOutcome(.acknowledged, invocationID: "a", attempt: 1).statuses == ["a:delivered"])
    }

    @Test func onlyANotRunningOpenAppIsStartedByItsRoute() throws {
        var plain = EngineFixture()
        try plain.receive("a")
        #expect(plain.engine.deliverByStarting(appID: app).isEmpty, "an activate-action app is started by Activate")
        var running = EngineFixture(policy: try UndeliverableAndOpenTests.openPolicy())
        _ = running.engine.nameOwnerChanged(appID: app, newOwner: ":1.7")
        try running.receive("a")
        #expect(running.engine.deliverByStarting(appID: app).isEmpty)
    }
}
