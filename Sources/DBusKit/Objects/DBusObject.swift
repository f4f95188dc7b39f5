/// An object exported at a path: the interfaces it implements besides the standard ones
/// (`Introspectable`, `Properties`, `Peer`), which the connection serves itself.
public struct DBusObject: Sendable {
    public var path: String
    public var interfaces: [DBusInterface]

    public init(path: String, interfaces: [DBusInterface]) {
        self.path = path
        self.interfaces = interfaces
    }

    public func interface(named name: String) -> DBusInterface? { interfaces.first { $0.name == name } }
}
