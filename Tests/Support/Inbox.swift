import DBusKit
import Foundation

/// Collects values from callbacks and lets a test wait for them without sleeping (shared by the
/// test targets through `DeeplinkerTestSupport`).
public final class Inbox<Element: Sendable>: Sendable {
    private let stream: AsyncStream<Element>
    private let continuation: AsyncStream<Element>.Continuation

    public init() {
        (stream, continuation) = AsyncStream.makeStream(of: Element.self)
    }

    public func put(_ element: Element) { continuation.yield(element) }

    /// The next element; fails after `timeout` (a guard against hangs, not a wait).
    public func next(timeout: Duration = .seconds(15)) async throws -> Element {
        try await withThrowingTaskGroup(of: Element?.self) { group in
            group.addTask { [stream] in
                var iterator = stream.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw DBusError.failed("timed out waiting for an event")
            }
            return value
        }
    }

    /// The next element satisfying `predicate`, skipping others.
    public func next(where predicate: (Element) -> Bool, timeout: Duration = .seconds(15)) async throws -> Element {
        while true {
            let element = try await next(timeout: timeout)
            if predicate(element) { return element }
        }
    }
}
