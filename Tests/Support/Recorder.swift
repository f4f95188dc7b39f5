import DBusKit
import Foundation
import TaskThreads

/// Collects values from callbacks and lets a test wait for the ones it expects, without sleeping.
/// Every element is kept: `first(where:)` and `wait(count:where:)` also see elements that arrived
/// before the wait began; `next(where:)` reads them in order, each once, like a queue. The one
/// recorder of every test target (`DeeplinkerTestSupport`).
public final class Recorder<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        /// Where `next` reads from.
        var cursor = 0
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
    }

    private struct Waiter {
        let id: UInt64
        /// The elements it waited for once they are there (and moves the cursor for `next`).
        let attempt: @Sendable (inout State) -> [Element]?
        let continuation: HandOff<[Element], any Error>
    }

    private let state = LockedValue(State())

    public init() {}

    public func put(_ element: Element) {
        let ready: [(HandOff<[Element], any Error>, [Element])] = state.withLock { state in
            state.items.append(element)
            var ready: [(HandOff<[Element], any Error>, [Element])] = []
            var waiting: [Waiter] = []
            for waiter in state.waiters {
                if let matches = waiter.attempt(&state) {
                    ready.append((waiter.continuation, matches))
                } else {
                    waiting.append(waiter)
                }
            }
            state.waiters = waiting
            return ready
        }
        for (continuation, matches) in ready { continuation.resume(returning: matches) }
    }

    /// Everything recorded so far.
    public var all: [Element] { state.withLock { $0.items } }

    public func count(where predicate: (Element) -> Bool) -> Int {
        state.withLock { $0.items.filter(predicate).count }
    }

    /// Waits until at least `count` recorded elements satisfy `predicate` and returns all that do.
    /// `timeout` only guards against a hang; it is not part of any expectation.
    @discardableResult
    public func wait(
        count: Int = 1, timeout: Duration = .seconds(20), where predicate: @escaping @Sendable (Element) -> Bool
    ) async throws -> [Element] {
        try await wait(timeout: timeout) { state in
            let matches = state.items.filter(predicate)
            return matches.count >= count ? matches : nil
        }
    }

    /// The first element satisfying `predicate`, waiting for it if needed.
    public func first(timeout: Duration = .seconds(20), where predicate: @escaping @Sendable (Element) -> Bool) async throws -> Element {
        try await wait(count: 1, timeout: timeout, where: predicate)[0]
    }

    /// The next element not read yet that satisfies `predicate` (those before it are skipped).
    public func next(where predicate: @escaping @Sendable (Element) -> Bool, timeout: Duration = .seconds(20)) async throws -> Element {
        try await wait(timeout: timeout) { state in
            guard state.cursor < state.items.count,
                  let index = state.items[state.cursor...].firstIndex(where: predicate) else { return nil }
            state.cursor = index + 1
            return [state.items[index]]
        }[0]
    }

    /// The next element not read yet.
    public func next(timeout: Duration = .seconds(20)) async throws -> Element {
        try await next(where: { _ in true }, timeout: timeout)
    }

    private func wait(timeout: Duration, _ attempt: @escaping @Sendable (inout State) -> [Element]?) async throws -> [Element] {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            self?.timeOut(id, after: timeout)
        }
        defer { timer.cancel() }
        return try await withHandOff { (continuation: HandOff<[Element], any Error>) in
            let matches: [Element]? = state.withLock { state in
                if let matches = attempt(&state) { return matches }
                state.waiters.append(Waiter(id: id, attempt: attempt, continuation: continuation))
                return nil
            }
            if let matches { continuation.resume(returning: matches) }
        }
    }

    private func timeOut(_ id: UInt64, after timeout: Duration) {
        let waiter: Waiter? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: DBusError.failed("timed out after \(timeout) waiting for an expected event"))
    }
}
