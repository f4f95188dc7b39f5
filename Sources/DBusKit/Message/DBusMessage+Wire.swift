internal import CDBus
import FoundationEssentials

/// Messages as bytes in the D-Bus wire format: for fuzzers and tools that replay captured calls.
extension DBusMessage {
    /// The message a byte string holds, or nil if libdbus finds it incomplete or invalid (libdbus
    /// checks the header, the signature and every value, as the bus would).
    public static func demarshal(_ bytes: UnsafeRawBufferPointer) -> DBusMessage? {
        guard let base = bytes.baseAddress, bytes.count > 0, bytes.count <= Int(Int32.max) else { return nil }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let raw = dbus_message_demarshal(base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), &error)
        else { return nil }
        return DBusMessage(owning: raw)
    }

    /// The message in the wire format (serial 0 unless it was sent).
    public func marshal() -> [UInt8]? {
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(raw, &buffer, &length) != 0, let buffer else { return nil }
        defer { dbus_free(buffer) }
        return [UInt8](UnsafeRawBufferPointer(start: buffer, count: Int(length)))
    }

    /// A copy of this method call (fresh serial, a reply expected) sent to `destination`, with the
    /// path and interface replaced when given. Nil if this is not a method call or a name is invalid.
    public func redirectedCall(to destination: String, path: String? = nil, interface: String? = nil) -> DBusMessage? {
        guard type == .methodCall, (try? Validation.check(busName: destination)) != nil else { return nil }
        if let path, (try? Validation.check(path: path)) == nil { return nil }
        if let interface, (try? Validation.check(interface: interface)) == nil { return nil }
        guard let copy = dbus_message_copy(raw) else { return nil }
        let message = DBusMessage(owning: copy)
        dbus_message_set_destination(copy, destination)
        dbus_message_set_no_reply(copy, 0)
        if let path { dbus_message_set_path(copy, path) }
        if let interface { dbus_message_set_interface(copy, interface) }
        return message
    }
}
