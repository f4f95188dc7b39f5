import DeeplinkerCore
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import SQLite
import Testing

/// Storage faults the store reports and survives (SPEC §4 `StorageFailed`): the kernel's own ENOSPC
/// on a real, small tmpfs, and a lock held by another connection; the failed write is not stored,
/// and the same store writes again once storage works, without being reopened. (A read-only remount
/// is refused by the kernel while the database is open for writing: I/O errors and a read-only file
/// system come from a faulty FUSE file system in `FileSystemFaultTests`.)
@Suite("Faults: storage", .serialized)
struct StorageFaultTests {
    typealias S = StoreSamples

    @Test(
        "disk full: the write fails naming the database and the cause, nothing is stored, the store recovers",
        .enabled(if: TmpfsMount.isAvailable, "mounting a tmpfs is refused here (needs root or CAP_SYS_ADMIN)"))
    func diskFull() async throws {
        let directory = try TemporaryDirectory()
        let mount = try TmpfsMount(path: directory.path, size: "1m")
        defer { mount.unmount() }
        let store = try SQLiteInvocationStore(directory: directory.path)
        try await store.write([.invocation(S.invocation("before", at: 1))])

        try mount.fill()
        let error = try await writeFailure(store, S.invocation("lost", at: 2))
        #expect(error.contains(store.path))
        #expect(error.contains("full"), "names the cause: \(error)")
        #expect(try await store.invocation(id: "lost") == nil, "a failed write leaves nothing behind")

        try mount.free()
        try await store.write([.invocation(S.invocation("after", at: 3))])
        #expect(try await store.history(appID: nil, limit: 0).map(\.id) == ["after", "before"])
        try await store.close()
    }

    @Test("database locked by another process beyond the busy timeout: the write fails, then succeeds once the lock is gone")
    func lockedDatabase() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteInvocationStore(directory: directory.path)
        try await store.write([.invocation(S.invocation("before", at: 1))])

        // Another writer holds the write lock (as a stray sqlite3 shell or a second daemon would).
        let other = try SQLiteDatabase(path: store.path)
        try other.begin()
        let error = try await writeFailure(store, S.invocation("lost", at: 2))
        #expect(error.contains(store.path))
        #expect(error.contains("locked"), "names the cause: \(error)")
        try other.rollback()
        other.close()

        try await store.write([.invocation(S.invocation("after", at: 3))])
        #expect(try await store.history(appID: nil, limit: 0).map(\.id) == ["after", "before"])
        try await store.close()
    }

    /// The `StoreError.writeFailed` description of a write that must fail.
    private func writeFailure(_ store: SQLiteInvocationStore, _ invocation: Invocation) async throws -> String {
        do {
            try await store.write([.invocation(invocation)])
        } catch let error as StoreError {
            guard case .writeFailed = error else { throw error }
            return error.description
        }
        Issue.record("the write of \(invocation.id) succeeded on a failing file system")
        return ""
    }
}
