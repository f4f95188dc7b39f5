import DeeplinkerCore
import Testing

/// Start-up recovery from a stored snapshot.
@Suite struct LifecycleRecoveryTests {
    let app = EngineFixture.app

    func invocation(_ id: String, _ status: InvocationStatus, at time: Int64, attempts: Int = 0) -> Invocation {
        Invocation(
            id: id, appID: app, source: .url,
            route: Route(target: "recipe", parameters: ["id": id], source: .url),
            status: status, receivedAt: time, attempts: attempts, dedupeKey: "key-\(id)")
    }

    @Test func deliveringInvocationIsRedeliveredOnceTheAppIsActive() throws {
        var f = EngineFixture()
        let now = f.clock.nowMicroseconds()
        let effects = f.engine.recover(
            from: EngineSnapshot(openInvocations: [invocation("a", .delivering, at: now - 1_000, attempts: 1)]),
            currentOwners: [:])
        #expect(effects.statuses == ["a:pending"])
        #expect(effects.changedInvocations.first?.redelivery == true)
        #expect(effects.deliveries.isEmpty)
        let delivery = try #require(try f.activate().deliveries.first)
        #expect(delivery.invocation.id == "a")
        #expect(delivery.redelivery)
        #expect(delivery.attempt == 2)
    }

    @Test func activeStateIsRestoredWhenTheSameUniqueNameStillOwnsTheName() throws {
        var f = EngineFixture()
        let now = f.clock.nowMicroseconds()
        let snapshot = EngineSnapshot(
            openInvocations: [invocation("a", .delivering, at: now - 1_000, attempts: 1)],
            appStates: [AppStateRecord(appID: app, state: .active, owner: ":1.5", updatedAt: now - 2_000)])
        let effects = f.engine.recover(from: snapshot, currentOwners: [app: ":1.5"])
        #expect(f.engine.state(of: app) == .active)
        #expect(effects.appStates.isEmpty, "nothing changed")
        let delivery = try #require(effects.deliveries.first)
        #expect(delivery.destination == ":1.5")
        #expect(delivery.redelivery)
    }

    @Test func stateIsNotRestoredForADifferentOwner() {
        var f = EngineFixture()
        let snapshot = EngineSnapshot(
            openInvocations: [invocation("a", .pending, at: f.clock.nowMicroseconds())],
            appStates: [AppStateRecord(appID: app, state: .active, owner: ":1.5", updatedAt: 0)])
        let effects = f.engine.recover(from: snapshot, currentOwners: [app: ":1.9"])
        #expect(f.engine.state(of: app) == .inactive)
        #expect(f.engine.owner(of: app) == ":1.9")
        #expect(effects.appStates.map(\.state) == [.inactive])
        #expect(effects.deliveries.isEmpty)
    }

    @Test func stateIsNotRestoredWhenNobodyOwnsTheName() {
        var f = EngineFixture()
        let snapshot = EngineSnapshot(appStates: [AppStateRecord(appID: app, state: .background, owner: ":1.5", updatedAt: 0)])
        _ = f.engine.recover(from: snapshot, currentOwners: [:])
        #expect(f.engine.state(of: app) == .notRunning)
    }

    @Test func ownerlessStateIsNotRestored() {
        var f = EngineFixture(policy: AppPolicy(lifecycleSenders: .any))
        let snapshot = EngineSnapshot(appStates: [AppStateRecord(appID: app, state: .active, owner: nil, updatedAt: 0)])
        _ = f.engine.recover(from: snapshot, currentOwners: [:])
        #expect(f.engine.state(of: app) == .notRunning)
    }

    @Test func currentOwnersWithoutStoredStateAreInactive() {
        var f = EngineFixture()
        let effects = f.engine.recover(from: EngineSnapshot(), currentOwners: [app: ":1.4"])
        #expect(f.engine.state(of: app) == .inactive)
        #expect(effects.appStates.map(\.owner) == [":1.4"])
    }

    @Test func newestOpenInvocationWinsAndOlderOnesAreSuperseded() {
        var f = EngineFixture()
        let now = f.clock.nowMicroseconds()
        let snapshot = EngineSnapshot(openInvocations: [
            invocation("b", .pending, at: now - 10),
            invocation("a", .delivering, at: now - 20, attempts: 1),
        ])
        let effects = f.engine.recover(from: snapshot, currentOwners: [:])
        #expect(effects.statuses == ["a:superseded"])
        #expect(f.engine.pending(appID: app)?.id == "b")
    }

    @Test func lastDeliveredRouteSurvivesARestart() throws {
        var f = EngineFixture(policy: AppPolicy(restoreLastRoute: true))
        let delivered = invocation("a", .delivered, at: f.clock.nowMicroseconds() - 500_000)
        _ = f.engine.recover(from: EngineSnapshot(lastDeliveredRoutes: [app: delivered.route!]), currentOwners: [:])
        #expect(f.engine.restoreRoute(appID: app)?.target == "recipe")
    }

    @Test func recoveredRouteOlderThanTTLExpiresInsteadOfBeingDelivered() {
        var f = EngineFixture(policy: AppPolicy(pendingTTL: .seconds(1)))
        let now = f.clock.nowMicroseconds()
        let snapshot = EngineSnapshot(
            openInvocations: [invocation("a", .pending, at: now - 5_000_000)],
            appStates: [AppStateRecord(appID: app, state: .active, owner: ":1.5", updatedAt: 0)])
        let effects = f.engine.recover(from: snapshot, currentOwners: [app: ":1.5"])
        #expect(effects.statuses == ["a:expired"])
    }
}
