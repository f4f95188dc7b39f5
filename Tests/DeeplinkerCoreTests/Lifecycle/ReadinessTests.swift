import DeeplinkerCore
import DeeplinkerTestSupport
import Testing

/// `ready = "name"` and `ready = "focus"` (SPEC §6 "Readiness"): apps with no Deeplinker code are
/// active while they own their name, or while one of their windows has the focus.
@Suite struct ReadinessTests {
    let app = EngineFixture.app
    static let other = "org.example.Other"

    /// The fixture app's policy from a route file, as the daemon derives it.
    static func policy(_ ready: String, extra: String = "") throws -> AppPolicy {
        try RouteFileParser.parse("""
            ready = "\(ready)"
            \(extra)
            [targets]
            recipe = { id = "string?" }
            """, appID: EngineFixture.app, file: "\(EngineFixture.app).toml").policy
    }

    static func fixture(_ ready: String, extra: String = "", otherReady: String? = nil) throws -> EngineFixture {
        var f = EngineFixture(policy: try policy(ready, extra: extra))
        if let otherReady {
            f.engine.setPolicies([EngineFixture.app: try policy(ready, extra: extra), other: try policy(otherReady)])
        }
        return f
    }

    // MARK: ready = "name"

    @Test func nameAppIsActiveWhileItOwnsItsName() throws {
        var f = try Self.fixture("name")
        let gained = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        #expect(f.engine.state(of: app) == .active)
        #expect(gained.appStates.map(\.state) == [.active])
        #expect(gained.appStates.first?.owner == ":1.5")
        let lost = f.engine.nameOwnerChanged(appID: app, newOwner: nil)
        #expect(f.engine.state(of: app) == .notRunning)
        #expect(lost.appStates.map(\.state) == [.notRunning])
    }

    @Test func nameAppsOwnSignalsAreIgnored() throws {
        var f = try Self.fixture("name")
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        #expect(try f.engine.lifecycleSignal(.didEnterBackground, appID: app, sender: ":1.5").isEmpty)
        #expect(try f.engine.setAppState(.inactive, appID: app, sender: ":1.5").isEmpty)
        #expect(try f.engine.lifecycleSignal(.willResignActive, appID: app, sender: ":1.9").isEmpty, "not even refused")
        #expect(f.engine.state(of: app) == .active)
    }

    @Test func runningNameAppIsRaisedThenGetsTheRoute() throws {
        var f = try Self.fixture("name")
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        let request = InvocationRequest(
            id: "a", appID: app, route: Route(target: "recipe", parameters: ["id": "12"], source: .url),
            platformData: ["activation-token": "tok"])
        let effects = try f.engine.receive(request).effects
        let kinds = effects.map { effect -> String in
            switch effect {
            case .statusChanged(let invocation): "status:\(invocation.status.rawValue)"
            case .raise(let summons): "raise:\(summons.owner ?? "")"
            case .deliver(let attempt): "deliver:\(attempt.destination ?? "")"
            case .launch: "launch"
            case .appStateChanged: "state"
            }
        }
        #expect(kinds == ["status:pending", "raise::1.5", "status:delivering", "deliver::1.5"])
        #expect(effects.raises.first?.activationToken == "tok")
        #expect(effects.raises.first?.invocationID == "a")
        #expect(effects.deliveries.first?.invocation.platformData["activation-token"] == "tok")
    }

    @Test func runningNameAppWithRaiseOffGetsOnlyTheRoute() throws {
        var f = try Self.fixture("name", extra: "raise = false")
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        let effects = try f.receive("a")
        #expect(effects.raises.isEmpty)
        #expect(effects.deliveries.count == 1)
    }

    @Test func stoppedNameAppIsLaunchedOnceAndGetsTheRouteWhenItOwnsItsName() throws {
        var f = try Self.fixture("name")
        let first = try f.receive("a")
        #expect(first.launches == [app])
        f.clock.advance(.milliseconds(100))
        let second = try f.receive("b")
        #expect(second.launches.isEmpty, "a burst stays one launch")
        #expect(second.statuses == ["a:superseded", "b:pending"])
        let owned = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.7")
        #expect(owned.raises.isEmpty)
        #expect(owned.deliveries.map(\.invocation.id) == ["b"])
        #expect(owned.deliveries.first?.destination == ":1.7")
        _ = f.engine.deliveryOutcome(.acknowledged, appID: app, invocationID: "b", attempt: 1)
        #expect(f.engine.pending(appID: app) == nil)
    }

    @Test func nameAppIconLaunchRaisesARunningApp() throws {
        var f = try Self.fixture("name")
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        #expect(try f.engine.summon(appID: app).raises.map(\.owner) == [":1.5"])
    }

    @Test func nameAppIsActiveAgainAfterARestartOfTheDaemon() throws {
        var f = try Self.fixture("name")
        let pending = Invocation(
            id: "a", appID: app, source: .url, route: Route(target: "recipe", parameters: [:], source: .url), status: .pending,
            receivedAt: f.engine.now)
        let snapshot = EngineSnapshot(
            openInvocations: [pending], appStates: [AppStateRecord(appID: app, state: .inactive, owner: ":1.4", updatedAt: 0)])
        let effects = f.engine.recover(from: snapshot, currentOwners: [app: ":1.5"])
        #expect(f.engine.state(of: app) == .active)
        #expect(effects.deliveries.map(\.destination) == [":1.5"])
    }

    @Test func aReloadToReadyByNameMakesARunningAppActive() throws {
        var f = try Self.fixture("signal")
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        try f.receive("a")
        #expect(f.engine.settleReadiness().isEmpty, "nothing changes for ready = signal")
        f.engine.setPolicies([app: try Self.policy("name")])
        let settled = f.engine.settleReadiness()
        #expect(f.engine.state(of: app) == .active)
        #expect(settled.deliveries.map(\.invocation.id) == ["a"])
    }

    @Test func aReloadFromNameToFocusMakesAnUnfocusedActiveAppInactive() throws {
        var f = try Self.fixture("name")
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        #expect(f.engine.state(of: app) == .active)
        f.engine.setPolicies([app: try Self.policy("focus")])
        let settled = f.engine.settleReadiness()
        #expect(f.engine.state(of: app) == .inactive, "another window has the focus")
        #expect(settled.appStates.map(\.state) == [.inactive])
        // A reload that changes nothing leaves an app that said it is active alone.
        _ = f.engine.setFocusedApp(app)
        f.engine.setPolicies([app: try Self.policy("focus")])
        #expect(f.engine.settleReadiness().isEmpty)
        #expect(f.engine.state(of: app) == .active)
    }

    // MARK: ready = "focus"

    @Test func focusGainedDeliversAndFocusLostMakesInactive() throws {
        var f = try Self.fixture("focus", otherReady: "signal")
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        #expect(f.engine.state(of: app) == .inactive)
        try f.receive("a")
        #expect(f.engine.setFocusedApp(Self.other).isEmpty, "another app's window: the route waits")
        #expect(f.engine.pending(appID: app)?.id == "a")
        let gained = f.engine.setFocusedApp(app)
        #expect(f.engine.state(of: app) == .active)
        #expect(gained.appStates.map(\.state) == [.active])
        #expect(gained.deliveries.map(\.invocation.id) == ["a"])
        #expect(gained.deliveries.first?.destination == ":1.5")
        #expect(f.engine.setFocusedApp(app).isEmpty, "the same app again changes nothing")
        let lost = f.engine.setFocusedApp("")
        #expect(lost.appStates.map(\.state) == [.inactive])
        #expect(f.engine.state(of: app) == .inactive)
        #expect(f.engine.focused == nil)
    }

    @Test func focusMovingBetweenTwoFocusAppsReportsLossFirst() throws {
        var f = try Self.fixture("focus", otherReady: "focus")
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        _ = f.engine.nameOwnerChanged(appID: Self.other, newOwner: ":1.6")
        _ = f.engine.setFocusedApp(app)
        let moved = f.engine.setFocusedApp(Self.other)
        #expect(moved.appStates.map { "\($0.appID)=\($0.state.rawValue)" } == ["\(app)=inactive", "\(Self.other)=active"])
    }

    @Test func focusDoesNotTouchSignalApps() throws {
        var f = try Self.fixture("signal", otherReady: "signal")
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        try f.receive("a")
        #expect(f.engine.setFocusedApp(app).isEmpty)
        #expect(f.engine.state(of: app) == .inactive)
        #expect(f.engine.setFocusedApp("org.unknown.App").isEmpty, "unknown apps are only remembered")
    }

    @Test func focusAppsOwnSignalsCountToo() throws {
        var f = try Self.fixture("focus")
        _ = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.5")
        try f.receive("a")
        let effects = try f.engine.lifecycleSignal(.becameActive, appID: app, sender: ":1.5")
        #expect(effects.deliveries.map(\.invocation.id) == ["a"])
        #expect(throws: DeeplinkerError.self) { try f.engine.lifecycleSignal(.becameActive, appID: app, sender: ":1.9") }
    }

    @Test func focusedAppThatTakesItsNameLaterIsActiveThen() throws {
        var f = try Self.fixture("focus")
        try f.receive("a")
        _ = f.engine.setFocusedApp(app)
        #expect(f.engine.pending(appID: app)?.id == "a", "no owner to deliver to yet")
        let owned = f.engine.nameOwnerChanged(appID: app, newOwner: ":1.8")
        #expect(f.engine.state(of: app) == .active)
        #expect(owned.deliveries.map(\.destination) == [":1.8"])
    }

    @Test func focusAppWithoutANameIsNotRunningOnceItLosesTheFocus() throws {
        var f = try Self.fixture("focus", extra: "delivery = \"signal\"")
        try f.receive("a")
        let gained = f.engine.setFocusedApp(app)
        #expect(gained.deliveries.map(\.invocation.id) == ["a"], "signal delivery needs no owner")
        _ = f.engine.setFocusedApp("")
        #expect(f.engine.state(of: app) == .notRunning)
    }
}
