import DeeplinkerCore
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import SQLite
import Testing

/// Schema v4 kept a delivery journal beside the database; v5 has none (SPEC §6: one database and
/// SQLite's own log). A v4 state directory opens: the journal's records that a crash left out of
/// SQLite are applied once, then the file and its `journal_state` table go.
@Suite struct V4UpgradeTests {
    typealias S = StoreSamples

    /// A copy of the fixture a v4 daemon (commit dbe61ee) left: see `Fixtures/v4-with-deliveries/README.md`.
    static func v4Directory() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/v4-with-deliveries").path
        for name in [SQLiteInvocationStore.fileName, SQLiteInvocationStore.fileName + V4DeliveryJournal.suffix] {
            try FileManager.default.copyItem(atPath: fixture + "/" + name, toPath: directory.path + "/" + name)
        }
        return directory
    }

    @Test("a v4 database with a journal: the unapplied record is applied once, the applied one not again; the file and table go")
    func upgradesOnce() async throws {
        let directory = try Self.v4Directory()
        let path = directory.path + "/" + SQLiteInvocationStore.fileName
        let log = CapturedLog()
        let store = try SQLiteInvocationStore(directory: directory.path, logger: log.logger())
        #expect(store.upgradedFromJournal == 1)
        #expect(try await store.invocation(id: "v4-unapplied")?.status == .delivering, "the route a crash left only in the journal is there")
        #expect(try await store.invocation(id: "v4-applied")?.status == .delivered, "record 1 (applied) did not undo the later change")
        #expect(try await store.appStates() == [AppStateRecord(appID: S.app, state: .active, owner: ":1.7", updatedAt: 42)])
        #expect(!FileManager.default.fileExists(atPath: path + V4DeliveryJournal.suffix), "the journal file is removed")
        #expect(log.messages(at: .notice).contains { $0.contains("applied 1 delivery journal record") })
        try await store.close()

        // The file and the table are gone; the schema is v6 with the de-duplication index; a second
        // open applies nothing.
        let db = try SQLiteDatabase(path: path, mode: .readOnly)
        let (version, hasTable) = (try db.integer("PRAGMA user_version") ?? 0, try db.tableExists("journal_state"))
        let dedupeIndex = try db.integer("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'invocation_by_dedupe_key'")
        db.close()
        #expect(version == Int64(SQLiteInvocationStore.schemaVersion))
        #expect(SQLiteInvocationStore.schemaVersion == 6)
        #expect(!hasTable)
        #expect(dedupeIndex == 1)
        let reopened = try SQLiteInvocationStore(directory: directory.path)
        #expect(reopened.upgradedFromJournal == 0)
        #expect(try await reopened.history(appID: nil, limit: 0).map(\.id).sorted() == ["v4-applied", "v4-unapplied"])
        for id in ["v4-applied", "v4-unapplied"] {
            let key = try #require(try await reopened.invocation(id: id)?.dedupeKey)
            #expect(try reopened.firstInvocation(appID: S.app, dedupeKey: key, since: 0)?.id == id, "\(id)'s key is found through the index")
        }
        try await reopened.close()
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(left.allSatisfy { $0.hasPrefix(SQLiteInvocationStore.fileName) && !$0.hasSuffix(V4DeliveryJournal.suffix) }, "\(left)")
    }

    @Test("a journal beside a database already upgraded (its removal was lost) is removed, not applied")
    func staleJournalIsRemoved() async throws {
        let directory = try Self.v4Directory()
        let journal = directory.path + "/" + SQLiteInvocationStore.fileName + V4DeliveryJournal.suffix
        let bytes = try Data(contentsOf: URL(fileURLWithPath: journal))
        let first = try SQLiteInvocationStore(directory: directory.path)
        // A later change the journal's record would undo, were it applied again.
        try await first.write([.invocation(S.invocation("v4-unapplied", status: .delivered, revision: 2))])
        try await first.close()
        try bytes.write(to: URL(fileURLWithPath: journal))
        let reopened = try SQLiteInvocationStore(directory: directory.path)
        #expect(reopened.upgradedFromJournal == 0)
        #expect(try await reopened.invocation(id: "v4-unapplied")?.status == .delivered)
        #expect(!FileManager.default.fileExists(atPath: journal))
        try await reopened.close()
    }

    @Test("the v4 record format: a record cut short ends the readable part")
    func tornRecord() throws {
        let directory = try Self.v4Directory()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory.path + "/" + SQLiteInvocationStore.fileName + V4DeliveryJournal.suffix)))
        let (records, valid) = V4DeliveryJournal.decodeAll(bytes)
        #expect(records.map(\.sequence) == [1, 2])
        #expect(valid == bytes.count)
        let cut = V4DeliveryJournal.decodeAll(Array(bytes.dropLast(3)))
        #expect(cut.records.map(\.sequence) == [1])
    }
}
