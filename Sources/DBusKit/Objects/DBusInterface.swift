/// One interface of an exported object: its methods, the signals it emits and its properties.
public struct DBusInterface: Sendable {
    public var name: String
    public var methods: [DBusMethod]
    public var signals: [DBusSignal]
    public var properties: [DBusProperty]
    /// Interface-level annotations (name, value), served in introspection.
    public var annotations: [DBusAnnotation]

    public init(
        _ name: String, methods: [DBusMethod] = [], signals: [DBusSignal] = [], properties: [DBusProperty] = [],
        annotations: [DBusAnnotation] = []
    ) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
        self.annotations = annotations
    }

    public func method(named name: String) -> DBusMethod? { methods.first { $0.name == name } }
    public func property(named name: String) -> DBusProperty? { properties.first { $0.name == name } }
}

/// An introspection annotation: a name in reverse-DNS form and a text value.
public struct DBusAnnotation: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
