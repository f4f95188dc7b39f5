import DeeplinkerCore
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// A write that carries a delivery is recorded in the delivery journal and counts as written
/// before SQLite's transaction (its delivery may go out); a store opened after a crash in between
/// replays it (SPEC §6: `delivering` is recorded before the send and redelivered after a restart).
@Suite struct DeliveryJournalTests {
    typealias S = StoreSamples

    /// A store whose drains run only when the test runs them.
    static func heldStore(_ directory: String, beforeRecordedTransaction: (@Sendable () -> Void)? = nil) throws
        -> (SQLiteInvocationStore, Locked<[@Sendable () -> Void]>)
    {
        let store = try SQLiteInvocationStore(
            directory: directory, historyLimit: 10_000, beforeBatch: nil, beforeRecordedTransaction: beforeRecordedTransaction)
        let drains = Locked<[@Sendable () -> Void]>([])
        store.scheduleCommits { drain in drains.mutate { $0.append(drain) } }
        return (store, drains)
    }

    @Test("a write with a delivery is written as it is enqueued, before its transaction; one without waits for it")
    func writtenBeforeTheTransaction() async throws {
        let directory = try TemporaryDirectory()
        let (store, drains) = try Self.heldStore(directory.path)
        let plain = store.enqueue([.invocation(S.invocation("plain"))])
        #expect(!plain.isWritten)
        try await Self.drainAll(drains)
        try await plain.wait()

        let delivering = store.enqueue([.invocation(S.invocation("sent", status: .delivering))], recording: .atOnce)
        #expect(delivering.isWritten, "recorded in the journal: its delivery may go out now")
        #expect(!delivering.isResolved, "not acknowledged before SQLite has it and it is synced")
        #expect(store.journal.recordCount == 1)
        #expect(try await store.invocation(id: "sent") == nil, "SQLite's transaction has not run yet")
        try await Self.drainAll(drains)
        try await delivering.wait()
        #expect(try await store.invocation(id: "sent")?.status == .delivering)
        drains.set([])
        try await store.close()
    }

    @Test("a crash between the record and the transaction: the next open replays the record into SQLite")
    func crashBeforeTheTransaction() async throws {
        let directory = try TemporaryDirectory()
        let (crashed, drains) = try Self.heldStore(directory.path)
        let sent = S.invocation("sent-then-crashed", status: .delivering, revision: 1)
        let state = AppStateRecord(appID: S.app, state: .active, owner: ":1.7", updatedAt: 42)
        let commit = crashed.enqueue([.invocation(sent), .appState(state)], recording: .atOnce)
        #expect(commit.isWritten)
        // The daemon dies here (its drain never runs); a new one opens the same directory.
        let reopened = try SQLiteInvocationStore(directory: directory.path)
        #expect(reopened.replayedAtOpen == 1)
        #expect(try await reopened.invocation(id: sent.id) == sent, "the route is there to be redelivered")
        #expect(try await reopened.appStates() == [state])
        #expect(reopened.journal.byteCount == 0, "replayed and synced, the journal is emptied")
        try await reopened.close()
        drains.set([])
    }

    @Test("records already in SQLite are not replayed, and numbering goes on after them")
    func appliedRecordsAreSkipped() async throws {
        let directory = try TemporaryDirectory()
        let (first, drains) = try Self.heldStore(directory.path)
        let commit = first.enqueue([.invocation(S.invocation("applied", status: .delivering, revision: 1))], recording: .atOnce)
        try await Self.drainAll(drains)
        try await commit.wait()
        #expect(first.journal.byteCount > 0, "a small journal is not emptied after each transaction")
        // A later change of the same invocation outside the journal, then a crash (no close).
        let later = first.enqueue([.invocation(S.invocation("applied", status: .delivered, revision: 2))])
        try await Self.drainAll(drains)
        try await later.wait()
        let reopened = try SQLiteInvocationStore(directory: directory.path)
        #expect(reopened.replayedAtOpen == 0, "journal_state says record 1 is in the database")
        #expect(try await reopened.invocation(id: "applied")?.status == .delivered)
        #expect(reopened.journal.nextSequence == 2)
        try await reopened.close()
        drains.set([])
    }

    @Test("a record cut short by the crash is ignored and logged; the intact ones before it are replayed")
    func tornRecordAtOpen() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/" + SQLiteInvocationStore.fileName + DeliveryJournal.suffix
        let whole = try #require(JournalRecord(sequence: 1, changes: [.invocation(S.invocation("whole", status: .delivering))]).encoded())
        let torn = try #require(JournalRecord(sequence: 2, changes: [.invocation(S.invocation("torn", status: .delivering))]).encoded())
        try Data(whole + torn.prefix(torn.count / 2)).write(to: URL(fileURLWithPath: path))
        let log = CapturedLog()
        let store = try SQLiteInvocationStore(directory: directory.path, logger: log.logger())
        #expect(store.replayedAtOpen == 1)
        #expect(try await store.invocation(id: "whole") != nil)
        #expect(try await store.invocation(id: "torn") == nil)
        #expect(log.messages(at: .notice).contains { $0.contains("ignored \(torn.count / 2) bytes after the last intact record") })
        #expect(log.messages(at: .notice).contains { $0.contains("replayed 1 delivery journal record") })
        try await store.close()
    }

    @Test("a write with a delivery that joins a queued batch is recorded with it at the drain, before the transaction")
    func recordedAtTheDrain() async throws {
        try await Self.expectRecordedByTheDrain { store in
            _ = store.enqueue([.invocation(S.invocation("queued-first"))])
            return store.enqueue([.invocation(S.invocation("joined", status: .delivering))], recording: .atOnce)
        }
    }

    @Test("`.atDrain` (SetAppState's reply goes first): recorded by the drain, not as it is enqueued, still before the transaction")
    func recordedAtTheDrainWhenAsked() async throws {
        try await Self.expectRecordedByTheDrain { store in
            store.enqueue([.invocation(S.invocation("after-reply", status: .delivering))], recording: .atDrain)
        }
    }

    /// `enqueue` returns a write with a delivery that is not written as it returns; the drain
    /// records it (one record for the batch) and marks it written before the transaction.
    static func expectRecordedByTheDrain(_ enqueue: (SQLiteInvocationStore) -> PendingCommit) async throws {
        let directory = try TemporaryDirectory()
        let seen = Locked<[Bool]>([])
        let commit = Locked<PendingCommit?>(nil)
        let (store, drains) = try heldStore(directory.path) {
            seen.mutate { $0.append(commit.value?.isWritten ?? false) }
        }
        let delivering = enqueue(store)
        commit.set(delivering)
        #expect(!delivering.isWritten, "nothing runs before the drain")
        #expect(store.journal.recordCount == 0)
        try await drainAll(drains)
        #expect(seen.value == [true], "recorded, and written, before its transaction")
        #expect(store.journal.recordCount == 1)
        try await delivering.wait()
        drains.set([])
        try await store.close()
    }

    @Test("a record that cannot be written is logged, and that delivery waits for its transaction")
    func unwritableRecordFallsBack() async throws {
        let directory = try TemporaryDirectory()
        let log = CapturedLog()
        let store = try SQLiteInvocationStore(directory: directory.path, logger: log.logger())
        let drains = Locked<[@Sendable () -> Void]>([])
        store.scheduleCommits { drain in drains.mutate { $0.append(drain) } }
        store.journal.close()  // every write now fails (EBADF)
        let delivering = store.enqueue([.invocation(S.invocation("no-record", status: .delivering))], recording: .atOnce)
        #expect(!delivering.isWritten, "not recorded: it is not written before its transaction")
        #expect(log.messages(at: .warning).contains { $0.contains("this delivery waits for its transaction") })
        try await Self.drainAll(drains)
        #expect(delivering.isWritten)
        try await delivering.wait()
        #expect(try await store.invocation(id: "no-record")?.status == .delivering)
        drains.set([])
        try await store.close()
    }

    @Test("a store set aside as corrupt takes its journal with it")
    func quarantineMovesTheJournal() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/" + SQLiteInvocationStore.fileName
        try Data("not a database at all, not even close".utf8).write(to: URL(fileURLWithPath: path))
        let record = try #require(JournalRecord(sequence: 1, changes: [.invocation(S.invocation("old"))]).encoded())
        try Data(record).write(to: URL(fileURLWithPath: path + DeliveryJournal.suffix))
        let opened = try SQLiteInvocationStore.openSettingAsideUnusable(directory: directory.path)
        let set = try #require(opened.quarantined)
        #expect(FileManager.default.fileExists(atPath: set.renamedPath + DeliveryJournal.suffix))
        #expect(opened.store.replayedAtOpen == 0, "the old database's records are not replayed into the new one")
    }

    /// Runs the scheduled drains (and any a drain schedules) until none is left.
    static func drainAll(_ drains: Locked<[@Sendable () -> Void]>) async throws {
        while let drain = drains.value.first {
            drains.mutate { _ = $0.removeFirst() }
            drain()
        }
    }
}
