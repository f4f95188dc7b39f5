/// One interface of an exported object: its methods, the signals it emits and its properties.
public struct DBusInterface: Sendable {
    public var name: String
    public var methods: [DBusMethod]
    public var signals: [DBusSignal]
    public var properties: [DBusProperty]

    public init(_ name: String, methods: [DBusMethod] = [], signals: [DBusSignal] = [], properties: [DBusProperty] = []) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
    }

    public func method(named name: String) -> DBusMethod? { methods.first { $0.name == name } }
    public func property(named name: String) -> DBusProperty? { properties.first { $0.name == name } }
}
