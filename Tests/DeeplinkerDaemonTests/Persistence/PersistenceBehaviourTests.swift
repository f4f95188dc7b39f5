import DeeplinkerCore
import DeeplinkerDaemon
import Testing

/// The store contract, run against both the SQLite store and its in-memory twin.
@Suite struct PersistenceBehaviourTests {
    typealias S = StoreSamples

    @Test(arguments: StoreKind.allCases)
    func invocationRoundTrip(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        let full = S.invocation("a")
        var rejected = Invocation(id: "r", appID: S.app, source: .url, route: nil, status: .rejected,
                                  detail: "org.deeplinker.Error.NoRoute", receivedAt: 2_000)
        rejected.platformData = [:]
        try await store.write([.invocation(full), .invocation(rejected)])
        #expect(try await store.invocation(id: "a") == full)
        #expect(try await store.invocation(id: "r") == rejected)
        #expect(try await store.invocation(id: "nope") == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func olderRevisionNeverOverwritesANewerOne(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        try await store.write([.invocation(S.invocation("a", status: .delivered, revision: 3))])
        try await store.write([.invocation(S.invocation("a", status: .delivering, revision: 2))])
        #expect(try await store.invocation(id: "a")?.status == .delivered)
        try await store.write([.invocation(S.invocation("a", status: .delivered, revision: 3))])
        #expect(try await store.history(appID: nil, limit: 0).count == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func historyIsNewestFirstFilteredAndLimited(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        try await store.write([
            .invocation(S.invocation("a", at: 10)),
            .invocation(S.invocation("b", app: "org.other.App", at: 20)),
            .invocation(S.invocation("c", at: 30)),
            .invocation(S.invocation("d", at: 30)),
        ])
        #expect(try await store.history(appID: nil, limit: 0).map(\.id) == ["d", "c", "b", "a"])
        #expect(try await store.history(appID: nil, limit: 2).map(\.id) == ["d", "c"])
        #expect(try await store.history(appID: S.app, limit: 0).map(\.id) == ["d", "c", "a"])
        #expect(try await store.history(appID: "org.none", limit: 0).isEmpty)
    }

    /// `GetHistory` reads listing entries, not whole invocations (the SQLite store selects six
    /// columns): the same rows in the same order, the route's source and target when routed.
    @Test(arguments: StoreKind.allCases)
    func historyEntriesListTheHistoryRows(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        var activity = S.invocation("b", app: "org.other.App", status: .delivered, at: 20)
        activity.source = .activity
        activity.route?.source = .universalLink
        let rejected = Invocation(id: "r", appID: S.app, source: .url, route: nil, status: .rejected,
                                  detail: "org.deeplinker.Error.NoRoute", receivedAt: 40)
        try await store.write([
            .invocation(S.invocation("a", at: 10)), .invocation(activity),
            .invocation(S.invocation("c", at: 30)), .invocation(rejected),
        ])
        #expect(try await store.historyEntries(appID: nil, limit: 0) == [
            HistoryEntry(id: "r", appID: S.app, source: .url, target: "", status: .rejected, receivedAt: 40),
            HistoryEntry(id: "c", appID: S.app, source: .notification, target: "messages.details", status: .pending, receivedAt: 30),
            HistoryEntry(id: "b", appID: "org.other.App", source: .universalLink, target: "messages.details", status: .delivered, receivedAt: 20),
            HistoryEntry(id: "a", appID: S.app, source: .notification, target: "messages.details", status: .pending, receivedAt: 10),
        ])
        for (app, limit) in [(nil, 0), (nil, 2), (S.app, 0), (S.app, 1), ("org.none", 0)] as [(String?, Int)] {
            let entries = try await store.historyEntries(appID: app, limit: limit)
            #expect(entries == (try await store.history(appID: app, limit: limit)).map(HistoryEntry.init))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func historyIsTrimmedOldestFinalFirstNeverOpenOnes(kind: StoreKind) async throws {
        let (store, directory) = try kind.make(historyLimit: 5)
        defer { _ = directory }
        try await store.write([
            .invocation(S.invocation("p1", status: .pending, at: 1)),
            .invocation(S.invocation("p2", status: .delivering, at: 2)),
        ])
        for index in 0..<10 {
            try await store.write([.invocation(S.invocation("d\(index)", status: .delivered, at: Int64(10 + index)))])
        }
        let kept = try await store.history(appID: nil, limit: 0).map(\.id)
        #expect(kept == ["d9", "d8", "d7", "p2", "p1"])
        // Updating an existing row does not trim anything.
        try await store.write([.invocation(S.invocation("p1", status: .delivered, at: 1, revision: 1))])
        #expect(try await store.history(appID: nil, limit: 0).count == 5)
    }

    /// A limit of 20 keeps up to 22 (a tenth as slack), then trims back to the newest 20 final ones
    /// in one delete.
    @Test(arguments: StoreKind.allCases)
    func historyGrowsByATenthBeforeItIsTrimmedBackToTheLimit(kind: StoreKind) async throws {
        let (store, directory) = try kind.make(historyLimit: 20)
        defer { _ = directory }
        try await store.write([.invocation(S.invocation("open", status: .pending, at: 0))])
        for index in 1...21 {
            try await store.write([.invocation(S.invocation("d\(index)", status: .delivered, at: Int64(index)))])
        }
        #expect(try await store.history(appID: nil, limit: 0).count == 22, "within the slack nothing is trimmed")
        try await store.write([.invocation(S.invocation("d22", status: .delivered, at: 22))])
        let kept = try await store.history(appID: nil, limit: 0).map(\.id)
        #expect(kept.count == 20)
        #expect(kept.first == "d22")
        #expect(kept.contains("open"), "an open invocation is never trimmed")
        #expect(!kept.contains("d3") && kept.contains("d4"), "the oldest final ones went: \(kept)")
    }

    @Test(arguments: StoreKind.allCases)
    func appStatesKeepTheirOwner(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        let active = AppStateRecord(appID: S.app, state: .active, owner: ":1.42", updatedAt: 7)
        let gone = AppStateRecord(appID: "org.other.App", state: .notRunning, owner: nil, updatedAt: 8)
        try await store.write([.appState(active), .appState(gone)])
        #expect(try await store.appStates() == [active, gone])
        let background = AppStateRecord(appID: S.app, state: .background, owner: ":1.43", updatedAt: 9)
        try await store.write([.appState(background)])
        #expect(try await store.appStates() == [background, gone])
    }

    @Test(arguments: StoreKind.allCases)
    func snapshotHoldsOpenInvocationsStatesAndLastRoutesOnly(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        let delivered = S.invocation("a", status: .delivered, at: 100)
        let pending = S.invocation("b", status: .pending, at: 200)
        let delivering = S.invocation("c", app: "org.other.App", status: .delivering, at: 300)
        let old = S.invocation("o", status: .expired, at: 5)
        let state = AppStateRecord(appID: S.app, state: .inactive, owner: ":1.9", updatedAt: 1)
        try await store.write([.invocation(old), .invocation(delivered), .invocation(pending), .invocation(delivering), .appState(state)])

        let snapshot = try await store.loadSnapshot()
        #expect(Set(snapshot.openInvocations.map(\.id)) == ["b", "c"])
        #expect(snapshot.appStates == [state])
        #expect(snapshot.lastDeliveredRoutes == [S.app: delivered.route!])
    }

    @Test(arguments: StoreKind.allCases)
    func firstInvocationIsTheOldestWithTheKeySinceTheGivenTimeRejectedOnesExcepted(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        func keyed(_ id: String, _ key: String, app: String = S.app, status: InvocationStatus = .delivered, at time: Int64) -> Invocation {
            var invocation = S.invocation(id, app: app, status: status, at: time)
            invocation.dedupeKey = key
            return invocation
        }
        try await store.write([
            .invocation(keyed("old", "k", at: 100)), .invocation(keyed("rejected", "k", status: .rejected, at: 150)),
            .invocation(keyed("first", "k", at: 200)), .invocation(keyed("later", "k", status: .pending, at: 300)),
            .invocation(keyed("other-key", "j", at: 160)), .invocation(keyed("other-app", "k", app: "org.other.App", at: 170)),
        ])
        #expect(try store.firstInvocation(appID: S.app, dedupeKey: "k", since: 101)?.id == "first")
        #expect(try store.firstInvocation(appID: S.app, dedupeKey: "k", since: 100)?.id == "old")
        #expect(try store.firstInvocation(appID: S.app, dedupeKey: "k", since: 100)?.status == .delivered)
        #expect(try store.firstInvocation(appID: S.app, dedupeKey: "k", since: 301) == nil)
        #expect(try store.firstInvocation(appID: S.app, dedupeKey: "j", since: 0)?.id == "other-key")
        #expect(try store.firstInvocation(appID: "org.other.App", dedupeKey: "k", since: 0)?.id == "other-app")
        #expect(try store.firstInvocation(appID: S.app, dedupeKey: "none", since: 0) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func lastDeliveredRouteSurvivesTrimming(kind: StoreKind) async throws {
        let (store, directory) = try kind.make(historyLimit: 1)
        defer { _ = directory }
        try await store.write([.invocation(S.invocation("a", status: .delivered, at: 1))])
        try await store.write([.invocation(S.invocation("b", status: .expired, at: 2))])
        #expect(try await store.history(appID: nil, limit: 0).map(\.id) == ["b"])
        #expect(try await store.loadSnapshot().lastDeliveredRoutes[S.app]?.parameters["id"] == "a")
    }

    @Test(arguments: StoreKind.allCases)
    func shortcutsAreReplacedPerApp(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        try await store.write([.shortcuts(appID: S.app, types: ["fav", "new"]), .shortcuts(appID: "x", types: ["a"])])
        try await store.write([.shortcuts(appID: S.app, types: ["new"])])
        #expect(try await store.shortcuts(appID: S.app) == ["new"])
        #expect(try await store.allShortcuts() == [S.app: ["new"], "x": ["a"]])
        try await store.write([.shortcuts(appID: "x", types: [])])
        #expect(try await store.allShortcuts() == [S.app: ["new"]])
        #expect(try await store.shortcuts(appID: "none") == [])
    }

    @Test(arguments: StoreKind.allCases)
    func notificationsAreRememberedUntilClosed(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        let posted = PostedNotification(id: 4_000_000_000, appID: S.app, payload: #"{"id":"7"}"#, postedAt: 9)
        try await store.write([.notificationPosted(posted)])
        #expect(try await store.notifications() == [posted.id: posted])
        try await store.write([.notificationClosed(id: posted.id)])
        #expect(try await store.notifications().isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func engineEffectsArePersistedInOrder(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        let first = S.invocation("a", status: .pending)
        var second = first
        second.status = .delivering
        second.revision = 1
        let state = AppStateRecord(appID: S.app, state: .active, owner: ":1.1", updatedAt: 3)
        let commit = store.enqueue(effects: [
            .statusChanged(first), .statusChanged(second), .launch(Summons(appID: S.app)), .raise(Summons(appID: S.app, owner: ":1.1")), .appStateChanged(state),
        ])
        try await commit.wait()
        #expect(try await store.invocation(id: "a")?.status == .delivering)
        #expect(try await store.appStates() == [state])
    }

    @Test(arguments: StoreKind.allCases)
    func closedStoreRefusesReadsAndWrites(kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        defer { _ = directory }
        try await store.close()
        await #expect(throws: StoreError.closed) { try await store.write([.invocation(S.invocation("a"))]) }
        await #expect(throws: StoreError.closed) { try await store.history(appID: nil, limit: 0) }
    }
}
