@testable import DeeplinkerDaemon
import Synchronization
import Testing

/// The durability promise: callbacks run once, in order, replies (`first`) ahead of the rest.
struct PendingCommitTests {
    @Test func callbacksRunInRegistrationOrderWithFirstOnesAhead() {
        let commit = PendingCommit()
        let order = Mutex<[String]>([])
        commit.whenResolved { _ in order.withLock { $0.append("effects-1") } }
        commit.whenResolved { _ in order.withLock { $0.append("effects-2") } }
        commit.whenResolved(first: true) { _ in order.withLock { $0.append("reply") } }
        #expect(order.withLock { $0 }.isEmpty)
        commit.resolve(.success(()))
        commit.resolve(.failure(StoreError.closed))
        #expect(order.withLock { $0 } == ["reply", "effects-1", "effects-2"])
        commit.whenResolved { outcome in order.withLock { $0.append((try? outcome.get()) != nil ? "late-success" : "late-failure") } }
        #expect(order.withLock { $0 }.last == "late-success")
    }
}
