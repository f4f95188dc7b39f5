import DBusKit
import DeeplinkerCore
import DeeplinkerProtocol

/// The daemon's D-Bus API (SPEC §3): its names, signals and properties, and the interface built from
/// the method table, so that introspection, the shipped XML and dispatch come from one description.
public enum DeeplinkerAPI {
    public static let busName = DeeplinkerBus.name
    public static let objectPath = DeeplinkerBus.objectPath
    public static let interface = DeeplinkerBus.interface
    public static let lifecycleInterface = DeeplinkerBus.lifecycleInterface
    public static let errorPrefix = DeeplinkerBus.errorPrefix
    public static let version = DeeplinkerVersion.current


    /// One method as callers see it: name and argument signatures (from the method table).
    public struct Method: Sendable {
        public let name: String
        public let inputs: [DBusArgument]
        public let outputs: [DBusArgument]
    }

    /// The methods of the interface, in the method table's order (for tools such as the fuzzer).
    public static let methods: [Method] = Daemon.methodTable.map { Method(name: $0.name, inputs: $0.inputs, outputs: $0.outputs) }

    public static let signals: [DBusSignal] = [
        DBusSignal("InvocationChanged", [DBusArgument("app_id", "s"), DBusArgument("invocation_id", "s"), DBusArgument("status", "s"), DBusArgument("detail", "s")]),
        DBusSignal("Deliver", [DBusArgument("app_id", "s"), DBusArgument("invocation_id", "s"), DBusArgument("source", "s"), DBusArgument("target", "s"), DBusArgument("parameters", "a{ss}")]),
    ]

    /// The read-only properties (SPEC §3: at least `Version`); the rest are what `deeplinker status`
    /// shows: start time (µs since the epoch), state directory, database size in bytes, and the
    /// errors of route files that failed at the last load; and what `deeplinker doctor` reads: the
    /// route-file search path, the last focus reporter, and what each route file serves
    /// (`RouteFiles`: path, app id, the FNV-1a digest of the bytes its routes came from, the last
    /// read's error), so that it can tell a daemon serving an older version of a file.
    public static let properties: [DBusArgument] = [
        DBusArgument("Version", "s"), DBusArgument("StartedAt", "x"), DBusArgument("StateDirectory", "s"), DBusArgument("DatabaseSize", "t"),
        DBusArgument("BrokenRouteFiles", "as"), DBusArgument("RouteDirectories", "as"), DBusArgument("FocusReporter", "a{sv}"),
        DBusArgument("RouteFiles", "a(ssts)"),
    ]

    /// The interface: one D-Bus method per entry of the method table, answered by `handler(entry)`,
    /// and `property(name)` answering each property.
    static func interface(
        handler: (DaemonMethod) -> @Sendable (DBusMethodCall) -> Void,
        property: @escaping @Sendable (String) -> DBusValue = placeholder
    ) -> DBusInterface {
        DBusInterface(
            interface,
            methods: Daemon.methodTable.map { entry in
                DBusMethod(entry.name, in: entry.inputs, out: entry.outputs, documentation: entry.documentation, handler: handler(entry))
            },
            signals: signals,
            properties: properties.map { declared in DBusProperty(declared.name, declared.signature) { property(declared.name) } },
            annotations: [DBusAnnotation(errorsAnnotation, DeeplinkerErrorName.allCases.map(\.dbusName).joined(separator: " "))])
    }

    /// Property values outside a running daemon (introspection): the version, else empty values.
    @Sendable public static func placeholder(_ name: String) -> DBusValue {
        switch name {
        case "Version": .string(version)
        case "StartedAt": .int64(0)
        case "DatabaseSize": .uint64(0)
        case "BrokenRouteFiles", "RouteDirectories": .strings([])
        case "FocusReporter": FocusReport.value(nil)
        case "RouteFiles": DaemonVitals.routeFilesValue([])
        default: .string("")
        }
    }

    /// The annotation that lists every error the interface answers with (SPEC §4), space-separated.
    public static let errorsAnnotation = "org.deeplinker.Errors"

    /// The introspection XML the daemon serves at its object path (and ships in `Config/`).
    public static var introspectionXML: String {
        DBusIntrospection.xml(interfaces: [interface(handler: { _ in { call in call.fail(.failed("not served")) } })])
    }
}
