import DBusKit
import DeeplinkerProtocol
import TaskThreads

/// The app side of Deeplinker for Swift apps on Linux: owns the app's bus name (its app id),
/// implements `org.freedesktop.Application` at the app's object path so the daemon can deliver
/// routes, and reports the app's lifecycle with `org.deeplinker.Lifecycle1` signals.
///
/// ```swift
/// let app = try DeeplinkerApp(appID: "com.bestrecipes.App")
/// try await app.start { route in navigator.show(route.target, route.parameters) }
/// app.becameActive()
/// ```
public final class DeeplinkerApp: Sendable {
    /// Handles one delivered route; returning acknowledges it, throwing refuses it (the daemon
    /// keeps it pending and delivers it again on the next `BecameActive`).
    public typealias RouteHandler = @Sendable (IncomingRoute) async throws -> Void
    /// Handles `Activate`: present the app's window (with the request's activation token). The
    /// daemon sends it to raise a running app for a link, a notification or an icon click.
    public typealias ActivateHandler = @Sendable (ActivationRequest) async -> Void
    /// Handles `Open` (files or URIs) calls.
    public typealias OpenHandler = @Sendable (_ uris: [String], _ hint: String, _ platformData: [String: DBusValue]) async -> Void

    /// The app id, which is also the bus name the app owns.
    public let appID: String
    /// `/` + the app id with `.` → `/` and `-` → `_`.
    public let objectPath: String
    /// The bus connection (own or given).
    public let connection: DBusConnection
    let ledger = InvocationLedger()
    let state = LockedValue(State())
    private let ownsConnection: Bool

    struct State {
        var lifecycle: AppLifecycleState?
        var daemonOwner: String?
        var started = false
        var subscriptions: [UInt64] = []
        var daemonAppeared: [@Sendable (String) -> Void] = []
        var acknowledged: [@Sendable (IncomingRoute, Bool) -> Void] = []
    }

    /// Connects to the bus at `busAddress` (nil = the session bus).
    public convenience init(appID: String, busAddress: String? = nil) throws(DBusError) {
        try self.init(appID: appID, connection: DBusConnection(address: busAddress), ownsConnection: true)
    }

    /// Uses an existing connection (not closed by `stop()`).
    public convenience init(appID: String, connection: DBusConnection) throws(DBusError) {
        try self.init(appID: appID, connection: connection, ownsConnection: false)
    }

    private init(appID: String, connection: DBusConnection, ownsConnection: Bool) throws(DBusError) {
        self.appID = appID
        self.objectPath = DeeplinkerNames.objectPath(forAppID: appID)
        self.connection = connection
        self.ownsConnection = ownsConnection
        // Refuse ids that make no valid object path or bus name now, not at the first signal.
        _ = try DBusMessage.signal(path: objectPath, interface: DeeplinkerNames.lifecycleInterface, member: LifecycleSignalName.becameActive.rawValue)
    }

    /// Exports `org.freedesktop.Application`, starts watching the daemon and takes the app's bus
    /// name. Routes go to `handler`. Fails when another process owns the name.
    public func start(
        activate: ActivateHandler? = nil, open: OpenHandler? = nil, handler: @escaping RouteHandler
    ) async throws(DBusError) {
        let first = state.withLock { s in
            defer { s.started = true }
            return !s.started
        }
        guard first else { throw .failed("DeeplinkerApp \(appID) is already started") }
        try connection.export(applicationObject(handler: handler, activate: activate, open: open))
        let token = try await connection.onNameOwnerChanged(name: DeeplinkerNames.busName) { [weak self] _, _, newOwner in
            self?.daemonOwnerChanged(to: newOwner)
        }
        let owner = try await connection.nameOwner(DeeplinkerNames.busName)
        state.withLock {
            $0.subscriptions.append(token)
            if $0.daemonOwner == nil { $0.daemonOwner = owner ?? "" }
        }
        switch try await connection.requestName(appID) {
        case .primaryOwner, .alreadyOwner: break
        default: throw DBusError(name: "org.freedesktop.DBus.Error.AddressInUse", message: "the bus name \(appID) is owned by another process")
        }
    }

    /// Starts like `start(handler:)` and returns the routes as an async sequence; each route is
    /// acknowledged when the sequence hands it to its consumer.
    public func routes() async throws(DBusError) -> RouteSequence {
        let queue = RouteQueue()
        try await start { route in try await queue.push(route) }
        return RouteSequence(queue: queue)
    }

    /// Releases the app's name and stops answering; closes the connection when it is our own.
    public func stop() async {
        let tokens = state.withLock { s in
            defer { s.subscriptions = [] }
            return s.subscriptions
        }
        for token in tokens { connection.unsubscribe(token) }
        connection.unexport(path: objectPath)
        try? await connection.releaseName(appID)
        if ownsConnection { connection.close() }
    }

    /// Runs `handler` after each `ActivateAction` reply is queued on the bus: with the route and
    /// whether it was a duplicate (an invocation id already handled, acknowledged without running
    /// the route handler). Useful for logging.
    public func onAcknowledged(_ handler: @escaping @Sendable (_ route: IncomingRoute, _ duplicate: Bool) -> Void) {
        state.withLock { $0.acknowledged.append(handler) }
    }

    /// Whether the app already handled the invocation with this id (so a redelivery is ignored).
    public func hasHandled(invocationID: String) async -> Bool {
        await ledger.contains(invocationID)
    }
}
