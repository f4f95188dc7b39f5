/// A read-only property served through `org.freedesktop.DBus.Properties`.
public struct DBusProperty: Sendable {
    public var name: String
    public var signature: String
    public var get: @Sendable () -> DBusValue

    public init(_ name: String, _ signature: String, get: @escaping @Sendable () -> DBusValue) {
        self.name = name
        self.signature = signature
        self.get = get
    }
}
