/// A D-Bus error: one received as a reply, one a handler answers with, or a local failure
/// (expressed with the standard `org.freedesktop.DBus.Error.*` names).
public struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    public var name: String
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }

    public static func invalidArgs(_ message: String) -> DBusError {
        DBusError(name: invalidArgsName, message: message)
    }

    public static func failed(_ message: String) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.Failed", message: message)
    }

    public static func disconnected(_ message: String = "the connection is closed") -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.Disconnected", message: message)
    }

    public static func noMemory() -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.NoMemory", message: "libdbus ran out of memory")
    }

    public static let invalidArgsName = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let noReplyName = "org.freedesktop.DBus.Error.NoReply"
    public static let unknownMethodName = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let serviceUnknownName = "org.freedesktop.DBus.Error.ServiceUnknown"
    public static let nameHasNoOwnerName = "org.freedesktop.DBus.Error.NameHasNoOwner"
}
