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
}
