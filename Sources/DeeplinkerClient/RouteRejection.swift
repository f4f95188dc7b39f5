import DBusKit

/// Thrown by a route handler to refuse a route with a specific D-Bus error; the daemon keeps the
/// route pending for the next `BecameActive`. Any other error is answered as
/// `org.freedesktop.DBus.Error.Failed` with its description.
public struct RouteRejection: Error, Sendable {
    public var dbusError: DBusError

    public init(name: String = "org.freedesktop.DBus.Error.Failed", message: String) {
        dbusError = DBusError(name: name, message: message)
    }
}
