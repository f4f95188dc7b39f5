import DeeplinkerCore
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// I/O errors and a read-only file system below the store (SPEC §4 `StorageFailed`), from a real
/// file system that fails the store's system calls (``FaultyFileSystem``, FUSE): every write while
/// it fails is refused naming the database and the errno, nothing of it is stored, what was stored
/// before stays, and the same open store writes again once the file system does. A failed sync is
/// different (SPEC §9): fatal, nothing is acknowledged after it.
@Suite(
    "Faults: I/O error and read-only file system below the store", .serialized,
    .safetySuite(if: FaultyFileSystem.isAvailable, FaultyFileSystem.unavailableReason))
struct FileSystemFaultTests {
    typealias S = StoreSamples

    @Test("the write fails naming the database and the errno, nothing is stored, the store recovers", arguments: [
        FileSystemFault.ioError, .readOnly,
    ])
    func faultThenRecovery(_ fault: FileSystemFault) async throws {
        let directory = try TemporaryDirectory()
        let (fs, backing, mountPoint) = try await Self.mount(in: directory)
        defer { fs.unmount() }
        let store = try SQLiteInvocationStore(directory: mountPoint)
        try await store.write([.invocation(S.invocation("before", at: 1))])

        try await fs.inject(fault)
        // Several writers at once: group commit puts them in one transaction, then retries each
        // alone; every one fails and is reported as such.
        let commits = (2...4).map { store.enqueue([.invocation(S.invocation("lost\($0)", at: Int64($0)))]) }
        for commit in commits {
            let message = try await failure(of: commit)
            #expect(message.contains(store.path), "names the database: \(message)")
            #expect(message.contains("disk I/O error"), "says it is an I/O failure: \(message)")
            #expect(message.contains(fault.expectedMessage), "names the cause: \(message)")
        }
        // Reads still work, and show nothing of the failed writes.
        #expect(try await store.history(appID: nil, limit: 0).map(\.id) == ["before"])

        try await fs.inject(.none)
        try await store.write([.invocation(S.invocation("after", at: 5))])
        #expect(try await store.history(appID: nil, limit: 0).map(\.id) == ["after", "before"])
        try await store.close()

        // Durable in the backing file itself, read without the faulty layer.
        let reopened = try SQLiteInvocationStore(directory: backing)
        #expect(try await reopened.history(appID: nil, limit: 0).map(\.id) == ["after", "before"])
        try await reopened.close()
    }

    @Test("a failed fsync of the log is fatal: its write and every later one are refused, the failure is reported once and logged")
    func syncFailureIsFatal() async throws {
        let directory = try TemporaryDirectory()
        let (fs, backing, mountPoint) = try await Self.mount(in: directory)
        defer { fs.unmount() }
        let log = CapturedLog()
        let store = try SQLiteInvocationStore(directory: mountPoint, logger: log.logger())
        let reported = Recorder<String>()
        store.whenSyncFails { reported.put("\($0)") }
        try await store.write([.invocation(S.invocation("before", at: 1))])

        try await fs.inject(.syncIOError)
        let commit = store.enqueue([.invocation(S.invocation("unsynced", at: 2))])
        do {
            try await commit.wait()
            Issue.record("a write whose log could not be synced was acknowledged")
        } catch let error as StoreError {
            guard case .syncFailed = error else { throw error }
            #expect(error.description.contains(store.path + "-wal"), "names the log: \(error)")
            #expect(error.description.contains("fdatasync"), "says which call failed: \(error)")
            #expect(error.description.contains(FileSystemFault.syncIOError.expectedMessage), "names the errno: \(error)")
        }
        let failure = try #require(try await reported.wait { _ in true }.first)
        #expect(failure.contains(store.path + "-wal"))
        let logged = log.messages(at: .error)
        #expect(logged.contains { $0.contains(store.path + "-wal") && $0.contains("EIO") && $0.contains("nothing more is acknowledged") }, "\(logged)")

        // Healed or not, nothing more is acknowledged: a later sync cannot vouch for the lost pages.
        try await fs.inject(.none)
        do {
            try await store.write([.invocation(S.invocation("after", at: 3))])
            Issue.record("a write after a failed sync was acknowledged")
        } catch let error as StoreError {
            guard case .syncFailed = error else { throw error }
        }
        #expect(reported.all.count == 1, "reported once")
        try await store.close()

        // What was acknowledged before is on disk, read without the faulty layer.
        let reopened = try SQLiteInvocationStore(directory: backing)
        #expect(try await reopened.invocation(id: "before") != nil)
        try await reopened.close()
    }

    /// A ``FaultyFileSystem`` over `directory/backing`, mounted on `directory/state` (the store's).
    private static func mount(in directory: TemporaryDirectory) async throws -> (FaultyFileSystem, backing: String, mountPoint: String) {
        let fs = try await FaultyFileSystem.mount(in: directory, on: "state")
        return (fs, fs.backing, fs.mountPoint)
    }

    /// The `StoreError.writeFailed` description of a commit that must fail.
    private func failure(of commit: PendingCommit) async throws -> String {
        do {
            try await commit.wait()
        } catch let error as StoreError {
            guard case .writeFailed = error else { throw error }
            return error.description
        }
        Issue.record("a write succeeded on a failing file system")
        return ""
    }
}
