/// A signal an exported interface declares (for introspection).
public struct DBusSignal: Sendable, Hashable {
    public var name: String
    public var arguments: [DBusArgument]

    public init(_ name: String, _ arguments: [DBusArgument] = []) {
        self.name = name
        self.arguments = arguments
    }
}
