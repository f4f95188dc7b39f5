import DBusKit
import DeeplinkerCore

/// The names and signatures of the daemon's D-Bus API (SPEC §3), kept apart from the handlers so
/// that introspection, the shipped XML and the dispatch table come from one description.
public enum DeeplinkerAPI {
    public static let busName = "org.deeplinker.Deeplinker1"
    public static let objectPath = "/org/deeplinker/Deeplinker1"
    public static let interface = "org.deeplinker.Deeplinker1"
    public static let lifecycleInterface = "org.deeplinker.Lifecycle1"
    public static let errorPrefix = "org.deeplinker.Error."
    public static let version = DeeplinkerVersion.current

    /// One method: name, inputs, outputs.
    public struct Method: Sendable {
        public let name: String
        public let inputs: [DBusArgument]
        public let outputs: [DBusArgument]
    }

    static func arg(_ name: String, _ signature: String) -> DBusArgument { DBusArgument(name, signature) }

    static let routeReply = [arg("invocation_id", "s"), arg("target", "s"), arg("parameters", "a{ss}")]

    public static let methods: [Method] = [
        Method(name: "OpenURL", inputs: [arg("app_id", "s"), arg("url", "s")], outputs: routeReply),
        Method(name: "ActivateNotification", inputs: [arg("app_id", "s"), arg("payload_json", "s"), arg("action", "s")], outputs: routeReply),
        Method(name: "PerformShortcut", inputs: [arg("app_id", "s"), arg("shortcut_type", "s")], outputs: routeReply),
        Method(name: "ContinueActivity", inputs: [arg("app_id", "s"), arg("activity_type", "s"), arg("webpage_url", "s")], outputs: routeReply),
        Method(name: "Launch", inputs: [arg("app_id", "s"), arg("launch_options_json", "s")], outputs: [arg("kind", "s")] + routeReply),
        Method(name: "Invoke", inputs: [arg("app_id", "s"), arg("source", "s"), arg("input", "s"), arg("platform_data", "a{sv}")], outputs: routeReply),
        Method(name: "GetPending", inputs: [arg("app_id", "s")], outputs: [
            arg("present", "b"), arg("invocation_id", "s"), arg("source", "s"), arg("target", "s"),
            arg("parameters", "a{ss}"), arg("received_at_usec", "x"),
        ]),
        Method(name: "DiscardPending", inputs: [arg("app_id", "s")], outputs: [arg("discarded", "b")]),
        Method(name: "ResolveURL", inputs: [arg("app_id", "s"), arg("url", "s")], outputs: [
            arg("app_id", "s"), arg("target", "s"), arg("parameters", "a{ss}"), arg("route_pattern", "s"),
        ]),
        Method(name: "GetAppState", inputs: [arg("app_id", "s")], outputs: [arg("state", "s")]),
        Method(name: "SetAppState", inputs: [arg("app_id", "s"), arg("state", "s")], outputs: []),
        Method(name: "ListApps", inputs: [], outputs: [arg("app_ids", "as")]),
        Method(name: "GetHistory", inputs: [arg("app_id", "s"), arg("limit", "u")], outputs: [arg("invocations", "a(sssssx)")]),
        Method(name: "SetShortcuts", inputs: [arg("app_id", "s"), arg("shortcut_types", "as")], outputs: []),
        Method(name: "PostNotification", inputs: [arg("app_id", "s"), arg("summary", "s"), arg("body", "s"), arg("payload_json", "s")], outputs: [arg("notification_id", "u")]),
        Method(name: "Reload", inputs: [], outputs: []),
    ]

    public static let signals: [DBusSignal] = [
        DBusSignal("InvocationChanged", [arg("app_id", "s"), arg("invocation_id", "s"), arg("status", "s"), arg("detail", "s")]),
        DBusSignal("Deliver", [arg("app_id", "s"), arg("invocation_id", "s"), arg("source", "s"), arg("target", "s"), arg("parameters", "a{ss}")]),
    ]

    /// The read-only properties (SPEC §3: at least `Version`); the rest are what `deeplinker status`
    /// shows: start time (µs since the epoch), state directory, database size in bytes, and the
    /// errors of route files that failed at the last load.
    public static let properties: [DBusArgument] = [
        arg("Version", "s"), arg("StartedAt", "x"), arg("StateDirectory", "s"), arg("DatabaseSize", "t"),
        arg("BrokenRouteFiles", "as"),
    ]

    /// The interface with `handler(name)` answering each method and `property(name)` each property.
    public static func interface(
        handler: (String) -> @Sendable (DBusMethodCall) -> Void,
        property: @escaping @Sendable (String) -> DBusValue = placeholder
    ) -> DBusInterface {
        DBusInterface(
            interface,
            methods: methods.map { DBusMethod($0.name, in: $0.inputs, out: $0.outputs, handler: handler($0.name)) },
            signals: signals,
            properties: properties.map { declared in DBusProperty(declared.name, declared.signature) { property(declared.name) } })
    }

    /// Property values outside a running daemon (introspection): the version, else empty values.
    @Sendable public static func placeholder(_ name: String) -> DBusValue {
        switch name {
        case "Version": .string(version)
        case "StartedAt": .int64(0)
        case "DatabaseSize": .uint64(0)
        case "BrokenRouteFiles": .strings([])
        default: .string("")
        }
    }

    /// The introspection XML the daemon serves at its object path (and ships in `Config/`).
    public static var introspectionXML: String {
        DBusIntrospection.xml(interfaces: [interface(handler: { _ in { call in call.fail(.failed("not served")) } })])
    }
}
