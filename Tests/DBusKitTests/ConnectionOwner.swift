import DBusKit

/// Holds a connection, as a daemon does; handlers that capture it hold the connection too.
final class ConnectionOwner: Sendable {
    let connection: DBusConnection
    init(_ connection: DBusConnection) { self.connection = connection }
    var name: String { connection.uniqueName }
}
