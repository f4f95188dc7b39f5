import DBusKit

/// Typed calls to the daemon's `org.deeplinker.Deeplinker1` interface (SPEC §3). Errors are the
/// daemon's `org.deeplinker.Error.*` replies (see `DBusError.deeplinkerErrorName`) or bus errors
/// (`DBusError.isDaemonNotRunning` when nobody serves the daemon's name).
public struct DeeplinkerProxy: Sendable {
    public let connection: DBusConnection
    /// Where calls go; the well-known name unless a test points elsewhere.
    public let destination: String
    /// Per-call time-out; nil = libdbus's default (25 s).
    public var timeout: Duration?

    public init(connection: DBusConnection, destination: String = DeeplinkerNames.busName, timeout: Duration? = nil) {
        self.connection = connection
        self.destination = destination
        self.timeout = timeout
    }

    /// Connects to the bus at `busAddress` (nil = the session bus).
    public init(busAddress: String?, timeout: Duration? = nil) throws(DBusError) {
        self.init(connection: try DBusConnection(address: busAddress), timeout: timeout)
    }

    /// Calls `member` on the daemon and checks the reply's signature.
    func call(_ member: String, _ arguments: [DBusValue] = [], expect signature: String) async throws(DBusError) -> [DBusValue] {
        let reply = try await connection.call(
            destination: destination, path: DeeplinkerNames.objectPath, interface: DeeplinkerNames.interface,
            member: member, arguments: arguments, timeout: timeout)
        let actual = DBusValue.signature(of: reply)
        guard actual == signature else {
            throw .failed("\(member) answered with signature '\(actual)', expected '\(signature)'")
        }
        return reply
    }

    /// Whether someone owns the daemon's name right now (does not start it).
    public func isDaemonRunning() async throws(DBusError) -> Bool {
        try await connection.nameOwner(destination) != nil
    }

    // MARK: Invocations

    public func openURL(appID: String, url: String) async throws(DBusError) -> InvocationReply {
        Self.invocation(try await call("OpenURL", [.string(appID), .string(url)], expect: "ssa{ss}"))
    }

    public func activateNotification(appID: String, payloadJSON: String, action: String = "default") async throws(DBusError) -> InvocationReply {
        Self.invocation(try await call("ActivateNotification", [.string(appID), .string(payloadJSON), .string(action)], expect: "ssa{ss}"))
    }

    public func performShortcut(appID: String, type: String) async throws(DBusError) -> InvocationReply {
        Self.invocation(try await call("PerformShortcut", [.string(appID), .string(type)], expect: "ssa{ss}"))
    }

    public func continueActivity(appID: String, activityType: String = "browsing-web", webpageURL: String) async throws(DBusError) -> InvocationReply {
        Self.invocation(try await call("ContinueActivity", [.string(appID), .string(activityType), .string(webpageURL)], expect: "ssa{ss}"))
    }

    public func launch(appID: String, optionsJSON: String) async throws(DBusError) -> LaunchReply {
        let reply = try await call("Launch", [.string(appID), .string(optionsJSON)], expect: "sssa{ss}")
        return LaunchReply(kind: reply[0].stringValue ?? "", invocation: Self.invocation(Array(reply.dropFirst())))
    }

    /// The general form: `source` is `url`, `notification`, `shortcut`, `activity` or `launch`;
    /// `platformData` may carry `activation-token`, `desktop-startup-id`, `action`, `activity-type`.
    public func invoke(appID: String, source: String, input: String, platformData: [String: String] = [:]) async throws(DBusError) -> InvocationReply {
        let platform = DBusValue.variantDictionary(platformData.mapValues { .string($0) })
        return Self.invocation(try await call("Invoke", [.string(appID), .string(source), .string(input), platform], expect: "ssa{ss}"))
    }

    static func invocation(_ values: [DBusValue]) -> InvocationReply {
        InvocationReply(
            invocationID: values[0].stringValue ?? "", target: values[1].stringValue ?? "",
            parameters: values[2].stringDictionaryValue ?? [:])
    }
}
