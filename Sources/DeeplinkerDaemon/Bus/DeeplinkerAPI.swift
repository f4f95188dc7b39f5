import DBusKit
import DeeplinkerProtocol

/// The names and signatures of the daemon's D-Bus API (SPEC §3), kept apart from the handlers so
/// that introspection, the shipped XML and the dispatch table come from one description.
public enum DeeplinkerAPI {
    public static let busName = DeeplinkerBus.name
    public static let objectPath = DeeplinkerBus.objectPath
    public static let interface = DeeplinkerBus.interface
    public static let lifecycleInterface = DeeplinkerBus.lifecycleInterface
    public static let errorPrefix = DeeplinkerBus.errorPrefix
    public static let version = "0.1.0"

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

    /// The interface with `handler(name)` answering each method.
    public static func interface(handler: (String) -> @Sendable (DBusMethodCall) -> Void) -> DBusInterface {
        DBusInterface(
            interface,
            methods: methods.map { DBusMethod($0.name, in: $0.inputs, out: $0.outputs, handler: handler($0.name)) },
            signals: signals,
            properties: [DBusProperty("Version", "s") { .string(version) }])
    }

    /// The introspection XML the daemon serves at its object path (and ships in `Config/`).
    public static var introspectionXML: String {
        DBusIntrospection.xml(interfaces: [interface { _ in { call in call.fail(.failed("not served")) } }])
    }
}
