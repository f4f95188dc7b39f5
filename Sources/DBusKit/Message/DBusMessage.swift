internal import CDBus
import FoundationEssentials

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

    /// Whether the bus may start the destination's service for this call (no `NO_AUTO_START` flag).
    public var autoStarts: Bool { dbus_message_get_auto_start(raw) != 0 }

    /// A method call; fails for names libdbus would refuse.
    public static func methodCall(
        destination: String?, path: String, interface: String?, member: String,
        arguments: [DBusValue] = [], noAutoStart: Bool = false
    ) throws(DBusError) -> DBusMessage {
        try Validation.check(path: path)
        if let destination { try Validation.check(busName: destination) }
        if let interface { try Validation.check(interface: interface) }
        try Validation.check(member: member)
        var fields: [WireEncoder.Field] = [.objectPath(1, path)]
        if let interface { fields.append(.string(2, interface)) }
        fields.append(.string(3, member))
        if let destination { fields.append(.string(6, destination)) }
        let flags = noAutoStart ? WireEncoder.noAutoStart : 0
        if isWellFormedExceptStrings(arguments),
            let message = demarshal(WireEncoder.message(.methodCall, flags: flags, fields: fields, body: arguments))
        {
            return message
        }
        return try libdbusMethodCall(destination: destination, path: path, interface: interface, member: member, arguments: arguments, noAutoStart: noAutoStart)
    }

    /// ``methodCall(destination:path:interface:member:arguments:noAutoStart:)`` built through
    /// libdbus's iterators (the fallback of the wire encoder, and what it is tested against).
    static func libdbusMethodCall(
        destination: String?, path: String, interface: String?, member: String, arguments: [DBusValue], noAutoStart: Bool
    ) throws(DBusError) -> DBusMessage {
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
        var fields: [WireEncoder.Field] = [.objectPath(1, path), .string(2, interface), .string(3, member)]
        if let destination { fields.append(.string(6, destination)) }
        if isWellFormedExceptStrings(arguments), let message = demarshal(WireEncoder.message(.signal, fields: fields, body: arguments)) {
            return message
        }
        return try libdbusSignal(path: path, interface: interface, member: member, arguments: arguments, destination: destination)
    }

    /// ``signal(path:interface:member:arguments:destination:)`` built through libdbus's iterators
    /// (the fallback of the wire encoder, and what it is tested against).
    static func libdbusSignal(
        path: String, interface: String, member: String, arguments: [DBusValue], destination: String?
    ) throws(DBusError) -> DBusMessage {
        guard let raw = dbus_message_new_signal(path, interface, member) else { throw .noMemory() }
        let message = DBusMessage(owning: raw)
        if let destination { dbus_message_set_destination(raw, destination) }
        try message.append(arguments)
        return message
    }

    /// A method return answering this call.
    public func makeReply(_ arguments: [DBusValue]) throws(DBusError) -> DBusMessage {
        var fields: [WireEncoder.Field] = [.uint32(5, serial)]
        if let sender { fields.append(.string(6, sender)) }
        if serial != 0, Self.isWellFormedExceptStrings(arguments), let message = Self.demarshal(WireEncoder.message(.methodReturn, fields: fields, body: arguments)) {
            return message
        }
        return try libdbusReply(arguments)
    }

    /// ``makeReply(_:)`` through libdbus's iterators.
    func libdbusReply(_ arguments: [DBusValue]) throws(DBusError) -> DBusMessage {
        guard let reply = dbus_message_new_method_return(raw) else { throw .noMemory() }
        let message = DBusMessage(owning: reply)
        try message.append(arguments)
        return message
    }

    /// A message from wire bytes (``WireEncoder``), its serial reset to 0 so that the connection
    /// numbers it when sending; nil if libdbus finds them invalid (the caller then takes the slow path).
    static func demarshal(_ bytes: [UInt8]?) -> DBusMessage? {
        guard let bytes else { return nil }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let raw = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32(buffer.count), &error) }
        }
        guard let raw else { return nil }
        dbus_message_set_serial(raw, 0)
        return DBusMessage(owning: raw)
    }

    /// An error reply answering this call. Invalid error names become `org.freedesktop.DBus.Error.Failed`.
    public func makeErrorReply(_ error: DBusError) throws(DBusError) -> DBusMessage {
        let name = (try? Validation.check(errorName: error.name)) != nil ? error.name : "org.freedesktop.DBus.Error.Failed"
        let text = error.message.replacing("\0", with: "\\0")
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
