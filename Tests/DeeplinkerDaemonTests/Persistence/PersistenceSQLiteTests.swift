import DeeplinkerCore
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import SQLite
import Testing

/// What only the SQLite store can show: durability settings, reopening, group commit, file errors.
@Suite struct PersistenceSQLiteTests {
    typealias S = StoreSamples

    /// The commit neither syncs (OFF) nor checkpoints (no auto-checkpoint): the sync thread's
    /// `fdatasync` of the log comes before the write is acknowledged.
    @Test func writerNeitherSyncsNorCheckpointsAndTheLogIsSyncedBeforeAcknowledging() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteInvocationStore(directory: directory.path)
        let (journal, synchronous, autocheckpoint) = try store.writer.withLock { db in
            (try db.text("PRAGMA journal_mode"), try db.integer("PRAGMA synchronous"), try db.integer("PRAGMA wal_autocheckpoint"))
        }
        #expect(journal == "wal")
        #expect(synchronous == 0, "OFF: SQLite's commit writes the log and leaves the sync to the sync thread")
        #expect(autocheckpoint == 0, "no checkpoint inside a commit: the sync thread runs them")
        #expect(store.syncCount == 0)
        try await store.write([.invocation(S.invocation("synced", at: 1))])
        #expect(store.syncCount == 1, "the write was acknowledged after the log's fdatasync")
        try await store.close()
    }

    /// A clean close checkpoints and truncates the log and keeps the file; the next start replays
    /// nothing and writes nothing: the log stays empty until the first commit.
    @Test func closeCheckpointsTheWAL() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteInvocationStore(directory: directory.path)
        try await store.write((0..<20).map { .invocation(S.invocation("i\($0)", status: .pending, at: Int64($0))) })
        let walPath = store.path + "-wal"
        #expect(try walSize(walPath) > 0, "the writes are in the WAL while the store is open")
        _ = try await store.history(appID: nil, limit: 0)
        try await store.close()
        #expect(try walSize(walPath) == 0, "checkpointed and truncated, the file kept")
        let reopened = try SQLiteInvocationStore(directory: directory.path)
        #expect(try await reopened.history(appID: nil, limit: 0).count == 20)
        #expect(try walSize(walPath) == 0, "the open wrote nothing")
        try await reopened.close()
    }

    /// A daemon stopped by cancelling its task (as the test fixture and the benchmark stop theirs)
    /// closes its store in that cancelled task: the checkpoint must still run.
    @Test func closeInACancelledTaskStillCheckpoints() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteInvocationStore(directory: directory.path)
        try await store.write((0..<20).map { .invocation(S.invocation("i\($0)", status: .pending, at: Int64($0))) })
        _ = try await store.history(appID: nil, limit: 0)  // a reader, as in closeCheckpointsTheWAL
        let closing = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await store.close()
        }
        await #expect(throws: Never.self) { try await closing.value }
        let size = try walSize(store.path + "-wal")
        #expect(size == 0, "checkpointed and truncated")
    }

    /// The row's values are bound through SQLite's C API (`InvocationRowBinding`): empty text stays
    /// text, a missing value is NULL, and both read back as they were written.
    @Test func invocationRowKeepsEmptyTextApartFromNull() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteInvocationStore(directory: directory.path)
        var rejected = S.invocation("no-route", status: .rejected, at: 7)
        rejected.route = nil
        rejected.detail = ""
        rejected.launchKind = nil
        rejected.dedupeKey = ""
        rejected.platformData = [:]
        var updated = S.invocation("updated", status: .pending, at: 8)
        try await store.write([.invocation(rejected), .invocation(updated)])
        updated.status = .delivered
        updated.revision = 1
        updated.detail = "é ✓ (D-Bus strings hold no NUL)"
        try await store.write([.invocation(updated)])
        let stored = try store.writer.withLock { db in
            try db.prepare("""
                SELECT detail IS NULL, launch_kind IS NULL, dedupe_key IS NULL, target IS NULL FROM invocation WHERE id = 'no-route'
                """).first { row in (0..<4).map { row.integer($0) != 0 } }
        }
        #expect(stored?[0] == false && stored?[2] == false, "empty text is text")
        #expect(stored?[1] == true && stored?[3] == true, "a missing value is NULL")
        #expect(try await store.invocation(id: "no-route") == rejected)
        let readBack = try await store.invocation(id: "updated")
        #expect(readBack == updated, "the UPDATE binds the same way")
        try await store.close()
    }

    private func walSize(_ path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return -1 }
        return Int(info.st_size)
    }

    @Test func everythingSurvivesCloseAndReopen() async throws {
        let directory = try TemporaryDirectory()
        let state = AppStateRecord(appID: S.app, state: .active, owner: ":1.42", updatedAt: 5)
        let posted = PostedNotification(id: 3, appID: S.app, payload: "{}", postedAt: 1)
        do {
            let store = try SQLiteInvocationStore(directory: directory.path)
            try await store.write([
                .invocation(S.invocation("a", status: .delivered, at: 1)),
                .invocation(S.invocation("b", status: .pending, at: 2)),
                .appState(state),
                .shortcuts(appID: S.app, types: ["fav"]),
                .notificationPosted(posted),
            ])
            try await store.close()
        }
        let reopened = try SQLiteInvocationStore(directory: directory.path)
        #expect(try await reopened.history(appID: nil, limit: 0).map(\.id) == ["b", "a"])
        #expect(try await reopened.invocation(id: "a") == S.invocation("a", status: .delivered, at: 1))
        let snapshot = try await reopened.loadSnapshot()
        #expect(snapshot.openInvocations.map(\.id) == ["b"])
        #expect(snapshot.appStates == [state])
        #expect(snapshot.lastDeliveredRoutes[S.app] != nil)
        #expect(try await reopened.shortcuts(appID: S.app) == ["fav"])
        #expect(try await reopened.notifications() == [3: posted])
        try await reopened.close()
    }

    @Test func committedWritesAreVisibleToAnIndependentConnectionWithoutClose() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteInvocationStore(directory: directory.path)
        try await store.write([.invocation(S.invocation("a"))])
        // A second store on the same file reads the committed row straight from the database/WAL.
        let other = try SQLiteInvocationStore(directory: directory.path)
        #expect(try await other.invocation(id: "a")?.id == "a")
        try await other.close()
        try await store.close()
    }

    @Test func concurrentWritesAreGroupCommitted() async throws {
        let directory = try TemporaryDirectory()
        // The first batch is held on the commit queue until all 64 writes are queued.
        let gate = DispatchSemaphore(value: 0)
        let store = try SQLiteInvocationStore(
            directory: directory.path, historyLimit: 10_000, beforeBatch: { _ in gate.wait(); gate.signal() })
        let commits = (0..<64).map { index in
            store.enqueue([.invocation(S.invocation("i\(index)", at: Int64(index)))])
        }
        #expect(commits.allSatisfy { !$0.isResolved }, "nothing is acknowledged before its commit")
        gate.signal()
        for commit in commits { try await commit.wait() }
        #expect(store.transactionCount <= 2, "64 writes queued behind one commit share the next transaction")
        #expect(try await store.history(appID: nil, limit: 0).count == 64)
        try await store.close()
    }

    @Test func oneFailingWriteInABatchFailsOnlyItsCaller() async throws {
        let directory = try TemporaryDirectory()
        let gate = DispatchSemaphore(value: 0)
        let store = try SQLiteInvocationStore(
            directory: directory.path, historyLimit: 10_000, beforeBatch: { _ in gate.wait(); gate.signal() })
        // A trigger refuses one row, as a full disk or a constraint would.
        try store.writer.withLock { db in
            try db.execute("""
                CREATE TRIGGER refuse_bad BEFORE INSERT ON invocation WHEN NEW.id = 'bad'
                BEGIN SELECT RAISE(ABORT, 'refused by the test'); END
                """)
        }
        let held = store.enqueue([.invocation(S.invocation("first", at: 1))])
        let batch = ["a", "bad", "c"].enumerated().map { index, id in
            store.enqueue([.invocation(S.invocation(id, at: Int64(10 + index)))])
        }
        gate.signal()
        try await held.wait()
        try await batch[0].wait()
        await #expect(throws: (any Error).self) { try await batch[1].wait() }
        try await batch[2].wait()
        // 'bad' always shares its batch (everything was queued behind the held commit), so the batch
        // was written straight through, rolled back, and written again with savepoints.
        #expect(try await store.history(appID: nil, limit: 0).map(\.id).sorted() == ["a", "c", "first"])
        try await store.close()
    }

    @Test func manyConcurrentCallersAllGetTheirWriteCommitted() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteInvocationStore(directory: directory.path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    try await store.write([.invocation(S.invocation("i\(index)", at: Int64(index)))])
                    #expect(try await store.invocation(id: "i\(index)") != nil)
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.history(appID: nil, limit: 0).count == 64, "every caller's row is stored, once")
        #expect(try await store.history(appID: nil, limit: 0).count == 64)
        try await store.close()
    }

    @Test func trimmingKeepsTheLimitAcrossReopen() async throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try SQLiteInvocationStore(directory: directory.path, historyLimit: 3)
            for index in 0..<5 {
                try await store.write([.invocation(S.invocation("a\(index)", status: .delivered, at: Int64(index)))])
            }
            try await store.close()
        }
        let store = try SQLiteInvocationStore(directory: directory.path, historyLimit: 3)
        try await store.write([.invocation(S.invocation("b", status: .delivered, at: 100))])
        #expect(try await store.history(appID: nil, limit: 0).map(\.id) == ["b", "a4", "a3"])
        try await store.close()
    }

    @Test func missingDirectoryIsCreatedPrivate() async throws {
        let directory = try TemporaryDirectory()
        let nested = directory.appending("a/b/state")
        let store = try SQLiteInvocationStore(directory: nested)
        let attributes = try FileManager.default.attributesOfItem(atPath: nested)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        try await store.close()
    }

    @Test func uncreatableDirectoryIsAClearError() throws {
        let directory = try TemporaryDirectory()
        let file = directory.appending("file")
        _ = FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        #expect(throws: StoreError.notADirectory(path: file)) {
            try SQLiteInvocationStore(directory: file)
        }
        do {
            _ = try SQLiteInvocationStore(directory: file + "/sub")
            Issue.record("expected an error")
        } catch let error as StoreError {
            guard case .cannotCreateDirectory(let path, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == file + "/sub")
            #expect(error.description.contains(file + "/sub"))
        }
    }

    @Test func corruptDatabaseIsAClearErrorAndIsLeftAlone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.appending(SQLiteInvocationStore.fileName)
        let garbage = Data(repeating: 0x5A, count: 8192)
        _ = FileManager.default.createFile(atPath: path, contents: garbage)
        do {
            _ = try SQLiteInvocationStore(directory: directory.path)
            Issue.record("expected an error")
        } catch let error as StoreError {
            guard case .corrupt(let reported, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(reported == path)
            #expect(error.description.contains("corrupt"))
        }
        #expect(FileManager.default.contents(atPath: path) == garbage, "the damaged file is not overwritten")
    }
}
