import DBusKit
import Foundation
import Synchronization

/// Collects values from callbacks and lets a test wait for ones it expects, without sleeping:
/// every element is kept, so a wait also sees elements that arrived before it started.
final class Recorder<Element: Sendable>: Sendable {
    private struct Waiter {
        let id: UInt64
        let count: Int
        let predicate: @Sendable (Element) -> Bool
        let continuation: CheckedContinuation<[Element], any Error>
    }

    private struct State {
        var items: [Element] = []
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    func put(_ element: Element) {
        let ready: [(CheckedContinuation<[Element], any Error>, [Element])] = state.withLock { state in
            state.items.append(element)
            var ready: [(CheckedContinuation<[Element], any Error>, [Element])] = []
            state.waiters.removeAll { waiter in
                let matches = state.items.filter(waiter.predicate)
                guard matches.count >= waiter.count else { return false }
                ready.append((waiter.continuation, matches))
                return true
            }
            return ready
        }
        for (continuation, matches) in ready { continuation.resume(returning: matches) }
    }

    /// Everything recorded so far.
    var all: [Element] { state.withLock { $0.items } }

    func count(where predicate: (Element) -> Bool) -> Int {
        state.withLock { $0.items.filter(predicate).count }
    }

    /// Waits until at least `count` recorded elements satisfy `predicate` and returns all that do.
    /// `timeout` only guards against a hang; it is not part of any expectation.
    @discardableResult
    func wait(
        count: Int = 1, timeout: Duration = .seconds(20),
        where predicate: @escaping @Sendable (Element) -> Bool
    ) async throws -> [Element] {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            self?.timeOut(id, after: timeout)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let matches: [Element]? = state.withLock { state in
                let matches = state.items.filter(predicate)
                if matches.count >= count { return matches }
                state.waiters.append(Waiter(id: id, count: count, predicate: predicate, continuation: continuation))
                return nil
            }
            if let matches { continuation.resume(returning: matches) }
        }
    }

    /// The first element satisfying `predicate`, waiting for it if needed.
    func first(timeout: Duration = .seconds(20), where predicate: @escaping @Sendable (Element) -> Bool) async throws -> Element {
        try await wait(count: 1, timeout: timeout, where: predicate)[0]
    }

    private func timeOut(_ id: UInt64, after timeout: Duration) {
        let waiter: Waiter? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: DBusError.failed("timed out after \(timeout) waiting for an expected event"))
    }
}

/// One `InvocationChanged(s app_id, s invocation_id, s status, s detail)` signal.
struct InvocationChange: Sendable, Hashable, CustomStringConvertible {
    let appID: String
    let id: String
    let status: String
    let detail: String

    var description: String { "\(appID) \(id) \(status) \(detail)" }
}

/// One `Deliver(s app_id, s invocation_id, s source, s target, a{ss} parameters)` signal.
struct DeliverSignal: Sendable, Hashable {
    let appID: String
    let id: String
    let source: String
    let target: String
    let parameters: [String: String]
}

/// A value behind a lock, shareable by reference (a `Mutex` itself cannot be captured).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value { mutex.withLock { $0 } }

    func set(_ value: Value) { mutex.withLock { $0 = value } }

    func mutate<R: Sendable>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}
