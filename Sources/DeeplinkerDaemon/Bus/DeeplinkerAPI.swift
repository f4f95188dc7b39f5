import DBusKit
import DeeplinkerProtocol

/// The daemon's D-Bus API (SPEC §3): its names, signals and properties, and the interface built from
/// the method table, so that introspection, the shipped XML and dispatch come from one description.
public enum DeeplinkerAPI {
    public static let busName = DeeplinkerBus.name
    public static let objectPath = DeeplinkerBus.objectPath
    public static let interface = DeeplinkerBus.interface
    public static let lifecycleInterface = DeeplinkerBus.lifecycleInterface
    public static let errorPrefix = DeeplinkerBus.errorPrefix
    public static let version = "0.1.0"

    static func arg(_ name: String, _ signature: String) -> DBusArgument { DBusArgument(name, signature) }

    public static let signals: [DBusSignal] = [
        DBusSignal("InvocationChanged", [arg("app_id", "s"), arg("invocation_id", "s"), arg("status", "s"), arg("detail", "s")]),
        DBusSignal("Deliver", [arg("app_id", "s"), arg("invocation_id", "s"), arg("source", "s"), arg("target", "s"), arg("parameters", "a{ss}")]),
    ]

    /// The interface: one D-Bus method per entry of the method table, answered by `handler(entry)`.
    static func interface(handler: (DaemonMethod) -> @Sendable (DBusMethodCall) -> Void) -> DBusInterface {
        DBusInterface(
            interface,
            methods: Daemon.methodTable.map { entry in
                DBusMethod(entry.name, in: entry.inputs, out: entry.outputs, documentation: entry.documentation, handler: handler(entry))
            },
            signals: signals,
            properties: [DBusProperty("Version", "s") { .string(version) }])
    }

    /// The introspection XML the daemon serves at its object path (and ships in `Config/`).
    public static var introspectionXML: String {
        DBusIntrospection.xml(interfaces: [interface { _ in { call in call.fail(.failed("not served")) } }])
    }
}
