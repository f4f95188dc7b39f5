@testable import DeeplinkerDaemon
import DBusKit
import Testing
import TaskThreads

/// The durability promise: callbacks run once, in registration order (effects before the reply).
struct PendingCommitTests {
    @Test func callbacksRunOnceInRegistrationOrder() {
        let commit = PendingCommit()
        let order = LockedValue<[String]>([])
        commit.whenResolved { _ in order.withLock { $0.append("effects-1") } }
        commit.whenResolved { _ in order.withLock { $0.append("effects-2") } }
        commit.whenResolved { _ in order.withLock { $0.append("reply") } }
        #expect(order.withLock { $0 }.isEmpty)
        commit.resolve(.success(()))
        commit.resolve(.failure(StoreError.closed))
        #expect(order.withLock { $0 } == ["effects-1", "effects-2", "reply"])
        commit.whenResolved { outcome in order.withLock { $0.append((try? outcome.get()) != nil ? "late-success" : "late-failure") } }
        #expect(order.withLock { $0 }.last == "late-success")
    }

    @Test func writtenCallbacksRunFirstAndAFailedSyncFailsOnlyTheDurableStep() {
        let commit = PendingCommit()
        let order = LockedValue<[String]>([])
        commit.whenResolved { outcome in order.withLock { $0.append("reply " + ((try? outcome.get()) != nil ? "ok" : "failed")) } }
        commit.whenWritten { outcome in order.withLock { $0.append("effects " + ((try? outcome.get()) != nil ? "ok" : "failed")) } }
        commit.markWritten()
        #expect(commit.isWritten && !commit.isResolved)
        #expect(order.withLock { $0 } == ["effects ok"])
        commit.resolve(.failure(StoreError.syncFailed(path: "/x-wal", reason: "fdatasync: Input/output error (EIO)")))
        #expect(order.withLock { $0 } == ["effects ok", "reply failed"])
    }

    @Test func resolvingWithoutAWrittenStepSettlesItFirstWithTheSameOutcome() {
        let commit = PendingCommit()
        let order = LockedValue<[String]>([])
        commit.whenResolved { _ in order.withLock { $0.append("reply") } }
        commit.whenWritten { outcome in order.withLock { $0.append((try? outcome.get()) != nil ? "effects" : "no effects") } }
        commit.resolve(.failure(StoreError.closed))
        #expect(order.withLock { $0 } == ["no effects", "reply"])
        commit.markWritten()
        commit.whenWritten { outcome in order.withLock { $0.append((try? outcome.get()) != nil ? "late ok" : "late failed") } }
        #expect(order.withLock { $0 }.last == "late failed", "a failed write stays failed")
    }

    /// The store hands a commit to the sync before running its effects: a sync that ends while they
    /// run holds the reply (and `wait()`) until they are done, so a reply never overtakes a signal.
    @Test func aSyncThatEndsWhileTheEffectsRunWaitsForThem() async throws {
        let commit = PendingCommit()
        let order = LockedValue<[String]>([])
        commit.whenWritten { _ in order.withLock { $0.append("signal") } }
        commit.whenResolved { _ in order.withLock { $0.append("reply") } }
        let step = commit.beginWritten()
        #expect(commit.isWritten)
        commit.resolve(.success(()))
        #expect(!commit.isResolved, "not reported while the written step's callbacks have not run")
        commit.whenResolved { _ in order.withLock { $0.append("late reply") } }
        #expect(order.withLock { $0 }.isEmpty)
        commit.finishWritten(step)
        #expect(order.withLock { $0 } == ["signal", "reply", "late reply"])
        #expect(commit.isResolved)
        try await commit.wait()
    }

    @Test func aFailedSyncWhileTheEffectsRunIsReportedAfterThem() async {
        let commit = PendingCommit()
        let order = LockedValue<[String]>([])
        commit.whenResolved { outcome in order.withLock { $0.append((try? outcome.get()) != nil ? "reply ok" : "reply failed") } }
        let step = commit.beginWritten()
        commit.whenWritten { _ in order.withLock { $0.append("registered late: runs at once") } }
        commit.resolve(.failure(StoreError.syncFailed(path: "/x-wal", reason: "fdatasync: Input/output error (EIO)")))
        commit.finishWritten(step)
        #expect(order.withLock { $0 } == ["registered late: runs at once", "reply failed"])
        await #expect(throws: StoreError.self) { try await commit.wait() }
    }
}
