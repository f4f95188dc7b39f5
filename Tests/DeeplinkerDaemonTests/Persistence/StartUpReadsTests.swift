import DeeplinkerCore
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import SQLite
import TaskThreads
import Testing

/// Start-up does not grow with the history kept (issue 37): its reads and the de-duplication
/// look-up go through indexes, and the integrity check runs only after an unclean stop, off the
/// thread that opens.
@Suite struct StartUpReadsTests {
    typealias S = StoreSamples

    @Test("the open invocations and the de-duplication look-up use indexes, never a scan of the history")
    func readsUseIndexes() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteInvocationStore(directory: directory.path)
        let plans = try store.writer.withLock { db in
            try [SQLiteInvocationStore.selectOpenInvocations, SQLiteInvocationStore.selectFirstInvocation].map { sql in
                try db.statement("EXPLAIN QUERY PLAN " + sql).rows { $0.text(3) ?? "" }.joined(separator: "; ")
            }
        }
        #expect(plans[0].contains("USING INDEX invocation_open"), "\(plans[0])")
        #expect(plans[1].contains("SEARCH invocation USING INDEX invocation_by_dedupe_key"), "\(plans[1])")
        #expect(!plans[1].contains("TEMP B-TREE"), "already in order: \(plans[1])")
        try await store.close()
    }

    @Test("a cleanly closed database is not checked again; one left with a log is, on another thread, and logs ok")
    func integrityIsCheckedOnlyAfterAnUncleanStop() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteInvocationStore(directory: directory.path)
        #expect(!store.stoppedUncleanly, "a new database")
        try await store.write([.invocation(S.invocation("a"))])
        // A copy of the files while the store is open is what `kill -9` leaves.
        let crashed = try TemporaryDirectory()
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(
                atPath: directory.path + "/" + SQLiteInvocationStore.fileName + suffix,
                toPath: crashed.path + "/" + SQLiteInvocationStore.fileName + suffix)
        }
        try await store.close()
        let reopened = try SQLiteInvocationStore(directory: directory.path)
        #expect(!reopened.stoppedUncleanly, "closed cleanly: the log was truncated")
        try await reopened.close()

        let log = CapturedLog()
        let recovered = try SQLiteInvocationStore(directory: crashed.path, logger: log.logger())
        #expect(recovered.stoppedUncleanly)
        #expect(try await recovered.invocation(id: "a") != nil, "SQLite's recovery kept the write")
        let checker = LockedValue<String?>(nil)
        let outcome: Result<[String], StoreError> = await withCheckedContinuation { done in
            recovered.checkIntegrity(logger: log.logger()) { result in
                checker.withLock { $0 = currentThreadName() }
                done.resume(returning: result)
            }
        }
        #expect(try outcome.get() == ["ok"])
        #expect(checker.withLock { $0 } == "store-check")
        #expect(log.messages(at: .info).contains { $0.contains("checked after an unclean stop: ok") })
        try await recovered.close()
    }
}

/// The name of the calling thread (`/proc/thread-self/comm`).
private func currentThreadName() -> String {
    ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
}
