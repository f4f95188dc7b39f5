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
