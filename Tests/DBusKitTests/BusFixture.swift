import DBusKit
import Foundation
import Testing

/// A private `dbus-daemon` per test, never the ambient session bus, plus connections to it.
final class BusFixture: Sendable {
    let bus: PrivateBus

    init() throws {
        bus = try PrivateBus()
    }

    func connect() throws -> DBusConnection {
        try DBusConnection(address: bus.address)
    }

    /// A server connection exporting `object`, owning `name`.
    func serve(_ object: DBusObject, name: String) async throws -> DBusConnection {
        let connection = try connect()
        try connection.export(object)
        let reply = try await connection.requestName(name)
        #expect(reply == .primaryOwner)
        return connection
    }
}

/// Collects values from callbacks and lets a test wait for them without sleeping.
final class Inbox<Element: Sendable>: Sendable {
    private let stream: AsyncStream<Element>
    private let continuation: AsyncStream<Element>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Element.self)
    }

    func put(_ element: Element) { continuation.yield(element) }

    /// The next element; fails the test after `timeout` (a guard against hangs, not a wait).
    func next(timeout: Duration = .seconds(10)) async throws -> Element {
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
}
