internal import CDBus

/// Checks names and values before they reach libdbus, whose own checks abort the process.
enum Validation {
    static func check(path: String) throws(DBusError) {
        try run(path, "object path", dbus_validate_path)
    }

    static func check(interface: String) throws(DBusError) {
        try run(interface, "interface name", dbus_validate_interface)
    }

    static func check(member: String) throws(DBusError) {
        try run(member, "member name", dbus_validate_member)
    }

    static func check(errorName: String) throws(DBusError) {
        try run(errorName, "error name", dbus_validate_error_name)
    }

    static func check(busName: String) throws(DBusError) {
        try run(busName, "bus name", dbus_validate_bus_name)
    }

    static func check(string: String) throws(DBusError) {
        try run(string, "string", dbus_validate_utf8)
    }

    static func check(signature: String) throws(DBusError) {
        guard !signature.utf8.contains(0), signature.utf8.count <= 255,
            signature.withCString({ dbus_signature_validate($0, nil) }) != 0
        else { throw .invalidArgs("invalid signature '\(printable(signature))'") }
    }

    static func check(singleCompleteType signature: String) throws(DBusError) {
        guard !signature.utf8.contains(0),
            signature.withCString({ dbus_signature_validate_single($0, nil) }) != 0
        else { throw .invalidArgs("'\(printable(signature))' is not a single complete type") }
    }

    private static func run(
        _ value: String, _ what: String,
        _ validate: (UnsafePointer<CChar>?, UnsafeMutablePointer<CDBus.DBusError>?) -> dbus_bool_t
    ) throws(DBusError) {
        guard !value.utf8.contains(0), value.withCString({ validate($0, nil) }) != 0 else {
            throw .invalidArgs("invalid \(what) '\(printable(value))'")
        }
    }

    /// The value shortened and with NULs made visible, for error messages.
    static func printable(_ value: String) -> String {
        let shown = value.count > 200 ? String(value.prefix(200)) + "…" : value
        return shown.replacing("\0", with: "\\0")
    }
}
