import DeeplinkerCore
import Testing

/// App states from name ownership and lifecycle reports, and the sender rule.
@Suite struct LifecycleStateTests {
    let app = EngineFixture.app

    @Test func gainingTheNameMeansInactiveAndLosingItNotRunning() {
        var f = EngineFixture()
        #expect(f.engine.state(of: app) == .notRunning)
        let gained = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        #expect(f.engine.state(of: app) == .inactive)
        #expect(gained.appStates.map(\.state) == [.inactive])
        #expect(gained.appStates.first?.owner == ":1.5")
        let lost = f.engine.nameOwnerChanged(appID: app, newOwner: "")
        #expect(f.engine.state(of: app) == .notRunning)
        #expect(lost.appStates.first?.owner == nil)
        #expect(f.engine.nameOwnerChanged(appID: app, newOwner: nil).isEmpty, "no change, no effect")
    }

    @Test func signalsMoveTheStateAndArePersistedWithTheOwner() throws {
        var f = EngineFixture()
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        let effects = try f.engine.lifecycleSignal(.becameActive, appID: app, sender: ":1.5")
        #expect(effects.appStates.map(\.state) == [.active])
        #expect(effects.appStates.first?.owner == ":1.5")
        _ = try f.engine.lifecycleSignal(.willResignActive, appID: app, sender: ":1.5")
        #expect(f.engine.state(of: app) == .inactive)
        _ = try f.engine.lifecycleSignal(.didEnterBackground, appID: app, sender: ":1.5")
        #expect(f.engine.state(of: app) == .background)
        _ = try f.engine.lifecycleSignal(.willEnterForeground, appID: app, sender: ":1.5")
        #expect(f.engine.state(of: app) == .inactive)
        #expect(try f.engine.lifecycleSignal(.willEnterForeground, appID: app, sender: ":1.5").isEmpty)
    }

    @Test func impostorsAreDeniedAndChangeNothing() throws {
        var f = EngineFixture()
        try f.receive("a")
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        #expect(throws: DeeplinkerError.self) {
            try f.engine.lifecycleSignal(.becameActive, appID: app, sender: ":1.6")
        }
        do {
            _ = try f.engine.setAppState(.active, appID: app, sender: ":1.6")
            Issue.record("expected accessDenied")
        } catch {
            #expect(error.name == "AccessDenied")
        }
        #expect(f.engine.state(of: app) == .inactive)
        #expect(f.engine.pending(appID: app)?.status == .pending)
    }

    @Test func nobodyMayReportAnOwnerlessOwnerModeApp() {
        var f = EngineFixture()
        #expect(throws: DeeplinkerError.self) {
            try f.engine.setAppState(.active, appID: app, sender: ":1.6")
        }
        #expect(f.engine.state(of: app) == .notRunning)
    }

    @Test func setAppStateFollowsTheSameRulesAsSignals() throws {
        var f = EngineFixture()
        try f.receive("a")
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        let effects = try f.engine.setAppState(.active, appID: app, sender: ":1.5")
        #expect(effects.deliveries.map(\.destination) == [":1.5"])
        #expect(throws: DeeplinkerError.invalidParameter(name: "state", value: "not-running", reason: "must be active, inactive or background")) {
            try f.engine.setAppState(.notRunning, appID: app, sender: ":1.5")
        }
        #expect(throws: DeeplinkerError.unknownApp("org.x")) {
            try f.engine.setAppState(.active, appID: "org.x", sender: ":1.5")
        }
    }

    @Test func anySendersMayReportEvenWithoutOwner() throws {
        var f = EngineFixture(policy: AppPolicy(lifecycleSenders: .any))
        try f.receive("a")
        let effects = try f.engine.setAppState(.active, appID: app, sender: ":1.99")
        #expect(f.engine.state(of: app) == .active)
        #expect(effects.deliveries.isEmpty, "activate-action without an owner cannot deliver")
        #expect(f.engine.pending(appID: app)?.status == .pending)
        #expect(f.engine.pending(appID: app)?.attempts == 0)
    }

    @Test func anySendersDeliverToTheOwnerAtDeliveryTime() throws {
        var f = EngineFixture(policy: AppPolicy(lifecycleSenders: .any))
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        _ = try f.engine.setAppState(.active, appID: app, sender: ":1.99")
        let effects = try f.receive("a")
        #expect(effects.deliveries.map(\.destination) == [":1.5"])
    }

    @Test func ownerChangeKeepsTheRoutePendingForTheNewOwnersBecameActive() throws {
        var f = EngineFixture()
        try f.activate(owner: ":1.5")
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.8")
        #expect(f.engine.state(of: app) == .inactive)
        let arrival = try f.receive("a")
        #expect(arrival.deliveries.isEmpty, "not delivered to the old owner nor the new one before it is active")
        #expect(throws: DeeplinkerError.self) {
            try f.engine.lifecycleSignal(.becameActive, appID: app, sender: ":1.5")
        }
        let effects = try f.engine.lifecycleSignal(.becameActive, appID: app, sender: ":1.8")
        #expect(effects.deliveries.map(\.destination) == [":1.8"])
    }

    @Test func losingTheNameDuringDeliveryLeavesTheOutcomeToDecide() throws {
        var f = EngineFixture()
        try f.activate()
        try f.receive("a")
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: nil)
        #expect(f.engine.deliveryOutcome(.refused("org.freedesktop.DBus.Error.NoReply"), invocationID: "a", attempt: 1).statuses == ["a:pending"])
        #expect(f.engine.state(of: app) == .notRunning)
    }

    @Test func unconfiguredAppIsUnknownForLifecycleReports() {
        var f = EngineFixture()
        _ = f.engine.nameOwnerChanged(appID: "org.other", newOwner: ":1.3")
        #expect(throws: DeeplinkerError.unknownApp("org.other")) {
            try f.engine.lifecycleSignal(.becameActive, appID: "org.other", sender: ":1.3")
        }
    }

    @Test func knownAppsFollowSetPolicies() throws {
        var f = EngineFixture()
        #expect(f.engine.knownApps == [app])
        try f.receive("a")
        f.engine.setPolicies(["b.App": AppPolicy(), "a.App": AppPolicy()])
        #expect(f.engine.knownApps == ["a.App", "b.App"])
        #expect(f.engine.policy(for: app) == nil)
        #expect(f.engine.pending(appID: app)?.id == "a", "an unconfigured app keeps its pending route")
        #expect(throws: DeeplinkerError.unknownApp(app)) { try f.receive("b") }
    }

    @Test func aStateChangeThatWasNotStoredIsPutBackAndItsDeliveryWaits() throws {
        var f = EngineFixture()
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: EngineFixture.owner)
        try f.receive("a")
        let lost = try f.engine.lifecycleSignal(.becameActive, appID: app, sender: EngineFixture.owner)
        #expect(lost.deliveries.map(\.invocation.id) == ["a"])
        // Its commit was refused: the daemon hands back the app's stored record.
        let stored = AppStateRecord(appID: app, state: .inactive, owner: EngineFixture.owner, updatedAt: 0)
        #expect(f.engine.forgetUnstored(lost.changedInvocations, appStates: [stored]).isEmpty)
        #expect(f.engine.state(of: app) == .inactive)
        let waiting = try #require(f.engine.pending(appID: app))
        #expect(waiting.status == .pending && waiting.attempts == 0 && waiting.revision == 0, "as stored: \(waiting)")
        let next = try f.activate()
        #expect(next.deliveries.map(\.invocation.id) == ["a"], "the next BecameActive delivers it")
        #expect(next.deliveries.first?.attempt == 1)
    }

    @Test func aDeliveryThatWasNotStoredIsSupersededByTheNewerRouteWaitingBehindIt() throws {
        var f = EngineFixture()
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: EngineFixture.owner)
        try f.receive("a")
        let lost = try f.engine.lifecycleSignal(.becameActive, appID: app, sender: EngineFixture.owner)
        f.clock.advance(.seconds(1))
        #expect(try f.receive("b").statuses == ["b:pending"], "b waits behind the delivery of a")
        let stored = AppStateRecord(appID: app, state: .inactive, owner: EngineFixture.owner, updatedAt: 0)
        let effects = f.engine.forgetUnstored(lost.changedInvocations, appStates: [stored])
        #expect(effects.statuses == ["a:superseded"])
        #expect(f.engine.pending(appID: app)?.id == "b")
        #expect(try f.activate().deliveries.map(\.invocation.id) == ["b"])
    }

    @Test func anOwnerThatWasNotStoredIsForgotten() {
        var f = EngineFixture()
        let lost = f.engine.nameOwnerChanged(appID: app, newOwner: EngineFixture.owner)
        #expect(lost.appStates.map(\.state) == [.inactive])
        let stored = AppStateRecord(appID: app, state: .notRunning, owner: nil, updatedAt: 0)
        #expect(f.engine.forgetUnstored([], appStates: [stored]).isEmpty)
        #expect(f.engine.state(of: app) == .notRunning)
        #expect(f.engine.owner(of: app) == nil)
    }
}
