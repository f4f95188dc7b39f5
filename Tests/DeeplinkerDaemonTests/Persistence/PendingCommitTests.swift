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
}
