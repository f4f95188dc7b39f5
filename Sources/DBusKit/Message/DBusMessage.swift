internal import CDBus
import Foundation

/// Owns one libdbus `DBusMessage` reference; header accessors and factories.
public final class DBusMessage: @unchecked Sendable {
    // Messages are immutable once built; libdbus reference counting is thread-safe.
    let raw: OpaquePointer

    /// Takes over a reference the caller already holds.
    init(owning raw: OpaquePointer) {
        self.raw = raw
    }

    /// Adds a reference to a message libdbus lends us.
    init(retaining raw: OpaquePointer) {
        self.raw = dbus_message_ref(raw)
    }

    deinit {
        dbus_message_unref(raw)
    }

    public var type: MessageType { MessageType(rawValue: dbus_message_get_type(raw)) ?? .invalid }
    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    public var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    public var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }
    public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    public var bodySignature: String { dbus_message_get_signature(raw).map { String(cString: $0) } ?? "" }
    public var serial: UInt32 { dbus_message_get_serial(raw) }
    public var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }
    public var expectsReply: Bool { dbus_message_get_no_reply(raw) == 0 }

    /// A method call; fails for names libdbus would refuse.
    public static func methodCall(
        destination: String?, path: String, interface: String?, member: String,
        arguments: [DBusValue] = [], noAutoStart: Bool = false
    ) throws(DBusError) -> DBusMessage {
        try Validation.check(path: path)
        if let destination { try Validation.check(busName: destination) }
        if let interface { try Validation.check(interface: interface) }
        try Validation.check(member: member)
        guard let raw = dbus_message_new_method_call(destination, path, interface, member) else { throw .noMemory() }
        let message = DBusMessage(owning: raw)
        if noAutoStart { dbus_message_set_auto_start(raw, 0) }
        try message.append(arguments)
        return message
    }

    /// A signal; `destination` makes it a unicast signal.
    public static func signal(
        path: String, interface: String, member: String, arguments: [DBusValue] = [], destination: String? = nil
    ) throws(DBusError) -> DBusMessage {
        try Validation.check(path: path)
        try Validation.check(interface: interface)
        try Validation.check(member: member)
        if let destination { try Validation.check(busName: destination) }
        guard let raw = dbus_message_new_signal(path, interface, member) else { throw .noMemory() }
        let message = DBusMessage(owning: raw)
        if let destination { dbus_message_set_destination(raw, destination) }
        try message.append(arguments)
        return message
    }

    /// A method return answering this call.
    public func makeReply(_ arguments: [DBusValue]) throws(DBusError) -> DBusMessage {
        guard let reply = dbus_message_new_method_return(raw) else { throw .noMemory() }
        let message = DBusMessage(owning: reply)
        try message.append(arguments)
        return message
    }

    /// An error reply answering this call. Invalid error names become `org.freedesktop.DBus.Error.Failed`.
    public func makeErrorReply(_ error: DBusError) throws(DBusError) -> DBusMessage {
        let name = (try? Validation.check(errorName: error.name)) != nil ? error.name : "org.freedesktop.DBus.Error.Failed"
        let text = error.message.replacingOccurrences(of: "\0", with: "\\0")
        guard let reply = dbus_message_new_error(raw, name, text) else { throw .noMemory() }
        return DBusMessage(owning: reply)
    }

    /// The error this message carries, if it is an error reply.
    public var asError: DBusError? {
        guard type == .error else { return nil }
        let text = (try? arguments()).flatMap { $0.first?.stringValue } ?? ""
        return DBusError(name: errorName ?? "org.freedesktop.DBus.Error.Failed", message: text)
    }
}
