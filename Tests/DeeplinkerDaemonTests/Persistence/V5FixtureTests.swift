import DeeplinkerCore
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// A schema-v5 state directory made by the daemon of commit d96dda7 (the last one on GRDB) opens,
/// and every row it holds reads back: see `Fixtures/v5/README.md`.
@Suite struct V5FixtureTests {
    typealias S = StoreSamples

    /// The fixture's directory in the source tree.
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/v5").path

    /// Every invocation in the fixture: each status, a route and none, NULL and empty text.
    static var invocations: [Invocation] {
        var all = InvocationStatus.allCases.enumerated().map { index, status in
            S.invocation("v5-\(status.rawValue)", status: status, at: 1_700_000_000_000_000 + Int64(index), revision: index)
        }
        var bare = S.invocation("v5-bare", app: "org.example.Other", status: .rejected, at: 1_700_000_000_000_100)
        bare.route = nil
        bare.detail = ""
        bare.launchKind = nil
        bare.dedupeKey = nil
        bare.platformData = [:]
        all.append(bare)
        var empty = S.invocation("v5-empty-key", app: "org.example.Other", status: .delivered, at: 1_700_000_000_000_200)
        empty.dedupeKey = ""
        all.append(empty)
        return all
    }

    static let appStates = [
        AppStateRecord(appID: S.app, state: .active, owner: ":1.7", updatedAt: 42),
        AppStateRecord(appID: "org.example.Other", state: .notRunning, owner: nil, updatedAt: 43),
    ]
    static let shortcuts = [S.app: ["compose", "search"]]
    static let notification = PostedNotification(id: 7, appID: S.app, payload: #"{"target":"messages.details"}"#, postedAt: 44)
    static let domainCheck = DomainCheck(
        appID: S.app, domain: "bestrecipes.example", verdict: .verified, detail: "listed", checkedAt: 45, verifiedAt: 45)

    static var changes: [StoreChange] {
        invocations.map { .invocation($0) } + appStates.map { .appState($0) }
            + [.shortcuts(appID: S.app, types: shortcuts[S.app]!), .notificationPosted(notification), .domainCheck(domainCheck)]
    }

    /// Writes the fixture (run once, on the commit named above, with DEEPLINKER_WRITE_V5_FIXTURE set
    /// to the output directory); closing checkpoints the log into the database file.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["DEEPLINKER_WRITE_V5_FIXTURE"] != nil))
    func writeFixture() async throws {
        let output = ProcessInfo.processInfo.environment["DEEPLINKER_WRITE_V5_FIXTURE"]!
        let store = try SQLiteInvocationStore(directory: output)
        try await store.write(Self.changes)
        try await store.close()
    }

    @Test("the v5 fixture opens and every row reads back")
    func opensAndReadsEveryRow() async throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(
            atPath: Self.fixture + "/" + SQLiteInvocationStore.fileName,
            toPath: directory.path + "/" + SQLiteInvocationStore.fileName)
        let store = try SQLiteInvocationStore(directory: directory.path)
        let byID = Dictionary(uniqueKeysWithValues: try await store.history(appID: nil, limit: 0).map { ($0.id, $0) })
        #expect(byID.count == Self.invocations.count)
        for invocation in Self.invocations {
            #expect(byID[invocation.id] == invocation)
            #expect(try await store.invocation(id: invocation.id) == invocation)
        }
        #expect(try await store.appStates() == Self.appStates.sorted { $0.appID < $1.appID })
        #expect(try await store.allShortcuts() == Self.shortcuts)
        #expect(try await store.notifications() == [Self.notification.id: Self.notification])
        #expect(try await store.domainChecks() == [Self.domainCheck])
        let snapshot = try await store.loadSnapshot()
        #expect(Set(snapshot.openInvocations.map(\.id)) == ["v5-pending", "v5-delivering"])
        #expect(snapshot.lastDeliveredRoutes.keys.sorted() == [S.app, "org.example.Other"])
        #expect(snapshot.lastDeliveredRoutes[S.app] == Self.invocations.first { $0.id == "v5-delivered" }?.route)
        // Migrated to v6: the de-duplication index is there and answers; a rejected invocation
        // never de-duplicates.
        #expect(try store.writer.withLock { try $0.integer("PRAGMA user_version") } == 6)
        #expect(try store.writer.withLock {
            try $0.integer("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'invocation_by_dedupe_key'")
        } == 1)
        for invocation in Self.invocations {
            guard let key = invocation.dedupeKey else { continue }
            let found = try store.firstInvocation(appID: invocation.appID, dedupeKey: key, since: 0)
            #expect(found == (invocation.status == .rejected ? nil : invocation), "\(invocation.id)")
            #expect(try store.firstInvocation(appID: invocation.appID, dedupeKey: key, since: invocation.receivedAt + 1) == nil)
        }
        // A new write lands beside the old rows.
        try await store.write([.invocation(S.invocation("after", at: 1_700_000_000_001_000))])
        #expect(try await store.history(appID: nil, limit: 0).count == Self.invocations.count + 1)
        try await store.close()
    }
}
