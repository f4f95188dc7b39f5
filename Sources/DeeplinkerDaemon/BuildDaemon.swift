import DeeplinkerProtocol
import DBusKit
import DeeplinkerCore
import DeeplinkerRouteFiles
import FoundationEssentials
import Glibc
import Logging

/// Connects, opens the store, loads the route files, recovers state, exports the API and takes
/// the well-known name. `deeplinkerd` and the tests both start the daemon through this.
///
/// The store is opened and its state read on another thread while the bus connection is made, the
/// name checked, the route files read and the subscriptions sent: in a `perf` profile of bus
/// activations the two paths cost about the same (docs/performance.md, "Cold start"), and cold
/// start is a goal (SPEC §9, ≤ 15 ms to the first reply; `deeplinker-bench coldstart` measures it).
/// Opening only reads (and sets aside a database that cannot be used, SPEC §4); nothing is
/// written before the name is ours, and a daemon refused the name closes the store again.
public func buildDaemon(_ configuration: DaemonConfiguration, logger: Logger = Logger(label: "deeplinkerd")) async throws -> Daemon {
    let opening = Task { try await StoredState.open(configuration, logger: logger) }
    let connection: DBusConnection
    do {
        connection = try DBusConnection(address: configuration.busAddress)
    } catch {
        await StoredState.discard(opening)
        throw DaemonError.busUnavailable(error.message)
    }
    do {
        async let existingOwner = connection.nameOwner(DeeplinkerAPI.busName)
        let routes = RouteDirectory.loadRegistry(configuration.routeDirectories, logger: logger)
        if let owner = try await existingOwner {
            throw DaemonError.nameTaken(name: DeeplinkerAPI.busName, owner: owner)
        }
        let daemon = Daemon(configuration, routes: routes, store: try await opening.value.store, connection: connection, logger: logger)
        do {
            let stored = try await opening.value
            try await serve(daemon, stored: stored, connection: connection, logger: logger)
            stored.checkAfterServing(logger: logger)
        } catch {
            daemon.watcher.stop()
            throw error
        }
        return daemon
    } catch {
        await StoredState.discard(opening)
        connection.close()
        throw error
    }
}

extension Daemon {
    /// The daemon with no bus, for calling its method table in process (as a router is tested
    /// without a server): the same store, routes, core and dispatcher as `buildDaemon`'s, on a
    /// detached connection, whose sends (signals, deliveries) go to `onSend` and whose method calls
    /// (to apps, the notification server) `answer` answers (without it: `ServiceUnknown`). Stop it
    /// as the real one: cancel the task that runs it.
    public static func inProcess(
        _ configuration: DaemonConfiguration, logger: Logger = Logger(label: "deeplinkerd"),
        onSend: @escaping @Sendable (DBusMessage) -> Void = { _ in },
        answer: (@Sendable (DBusMessage) -> Result<[DBusValue], DBusError>)? = nil
    ) async throws -> Daemon {
        let stored = try await StoredState.open(configuration, logger: logger)
        let connection = DBusConnection.detached(onSend: onSend, answer: answer)
        let routes = RouteDirectory.loadRegistry(configuration.routeDirectories, logger: logger)
        let daemon = Daemon(configuration, routes: routes, store: stored.store, connection: connection, logger: logger)
        daemon.recover(stored, currentOwners: [:])
        return daemon
    }

    /// Calls a method of the interface in process, as `caller` on connection `sender`, through
    /// the one dispatcher; returns its reply values or its D-Bus error.
    public func call(
        _ member: String, _ arguments: [DBusValue], as caller: Caller = .host, sender: String = ":1.1"
    ) async -> Result<[DBusValue], DBusError> {
        guard let method = Self.methodsByName[member] else {
            return .failure(DBusError(name: DBusError.unknownMethodName, message: "no method '\(member)'"))
        }
        // Through a hand-off, not a bare continuation: the reply is made on the bus thread.
        return await withHandOff { (continuation: HandOff<Result<[DBusValue], DBusError>, Never>) in
            core.onLoop { core in
                core.dispatch(method, arguments: arguments, sender: sender, caller: caller) { continuation.resume(returning: $0) }
            }
        }
    }

    /// ``call(_:_:as:sender:)`` whose answer goes to `respond` on the bus thread, the moment the
    /// dispatcher sends it (tests of what happens before and after a reply).
    public func call(
        _ member: String, _ arguments: [DBusValue], as caller: Caller = .host, sender: String = ":1.1",
        respond: @escaping @Sendable (Result<[DBusValue], DBusError>) -> Void
    ) {
        guard let method = Self.methodsByName[member] else {
            return respond(.failure(DBusError(name: DBusError.unknownMethodName, message: "no method '\(member)'")))
        }
        core.onLoop { core in core.dispatch(method, arguments: arguments, sender: sender, caller: caller, respond: respond) }
    }

    /// Calls `org.freedesktop.Application.<member>` on `appID`'s scheme handler entry in process,
    /// as the bus does: through `Invoke`'s entry of the one dispatcher.
    public func callHandlerEntry(
        _ appID: String, _ member: String, _ arguments: [DBusValue], as caller: Caller = .host, sender: String = ":1.1"
    ) async -> Result<[DBusValue], DBusError> {
        await withHandOff { (continuation: HandOff<Result<[DBusValue], DBusError>, Never>) in
            core.onLoop { core in
                core.handlerEntryCall(appID: appID, member: member, arguments: arguments, sender: sender, caller: caller) {
                    continuation.resume(returning: $0)
                }
            }
        }
    }

    /// Restores the engine from the stored state, given who owns the apps' names now.
    func recover(_ stored: StoredState, currentOwners: [String: String]) {
        let (posted, snapshot, published, checks) = (stored.posted, stored.snapshot, stored.published, stored.domainChecks)
        core.onLoop { core in
            core.postedNotifications = posted
            core.published = published
            for check in checks { core.domainChecks[DomainClaim(check.appID, check.domain)] = check }
            for record in snapshot.appStates { core.storedAppStates[record.appID] = record }
            core.apply(core.engine.recover(from: snapshot, currentOwners: currentOwners))
            core.scheduleSweep()
            // Apps already running but not restored (no matching record) are at least running.
            for (app, owner) in currentOwners where core.engine.state(of: app) == .notRunning {
                core.ownerChanged(name: app, newOwner: owner)
            }
        }
        // Written desktop entries follow the installed entries they came from (SPEC §8).
        core.onLoop { core in core.refreshDesktopEntries() }
    }
}

extension RouteDirectory {
    /// The daemon's first load: the registry, the broken files' errors (for `status`), what each
    /// file serves (`RouteFiles`) and the search path.
    typealias Loaded = (registry: AppRegistry, broken: [String], served: [ServedRouteFile], directories: [String])

    /// The route files of the search path as a registry, broken files logged and kept for `status`.
    static func loadRegistry(_ directories: [String], logger: Logger) -> Loaded {
        let result = load(directories: directories)
        let (registry, errors) = merge(result, over: AppRegistry())
        for error in errors { logger.error("\(error.description)") }
        logger.info("loaded route files for \(registry.appIDs.count) apps from \(directories.joined(separator: ":"))")
        return (registry, errors.map(\.description), served(result, over: []), directories)
    }
}

/// Subscribes, recovers the engine, exports the API and takes the name. Subscriptions go out
/// before owners are read, so no change falls between the two; the bus calls go out together, in
/// three round trips in all (subscriptions, owners, the name) rather than one per call.
private func serve(_ daemon: Daemon, stored: StoredState, connection: DBusConnection, logger: Logger) async throws {
    let core = daemon.core
    let appIDs = await daemon.core.registry.appIDs
    // Posted notifications are in the core before any click can be queued behind them.
    let posted = stored.posted
    core.onLoop { core in core.postedNotifications = posted }
    // One name watch per configured app (later registries are watched by
    // `DaemonCore.watchAppNames`), the lifecycle signals and the notification server, all in
    // flight at once.
    async let appWatches = DaemonCore.watchNames(appIDs, on: connection) { name, newOwner in
        core.onLoop { core in core.ownerChanged(name: name, newOwner: newOwner) }
    }
    async let lifecycle = connection.subscribe(MatchRule(interface: DeeplinkerAPI.lifecycleInterface)) { message, _ in
        guard let path = message.path, let member = message.member, let sender = message.sender else { return }
        core.onLoop { core in core.lifecycleSignal(path: path, member: member, sender: sender) }
    }
    async let notificationServer: Void = subscribeToNotificationServer(connection, core: core)
    // Callers are identified once per unique name and forgotten when it leaves the bus.
    async let callersLeaving = connection.onNameLost { name in
        guard name.hasPrefix(":") else { return }
        core.onLoop { core in core.callerLeft(name) }
    }
    var watches: [String: NameWatch?] = [:]
    var owners: [String: String] = [:]
    for (app, result) in await appWatches {
        let (watch, owner) = try result.get()
        watches[app] = watch
        if let owner { owners[app] = owner }
    }
    _ = try await lifecycle
    _ = try await callersLeaving
    try await notificationServer
    let started = watches
    core.onLoop { core in core.nameWatches = started }

    // Apps that are no longer configured but have stored routes or states: their owners too.
    var others = Set<String>()
    for invocation in stored.snapshot.openInvocations where watches[invocation.appID] == nil { others.insert(invocation.appID) }
    for record in stored.snapshot.appStates where watches[record.appID] == nil { others.insert(record.appID) }
    let lookups = others.sorted().map { app in Task { (app, try? await connection.nameOwner(app)) } }
    for lookup in lookups {
        let (app, owner) = await lookup.value
        if let owner { owners[app] = owner }
    }
    daemon.recover(stored, currentOwners: owners)

    try connection.export(DBusObject(
        path: DeeplinkerAPI.objectPath,
        interfaces: [DeeplinkerAPI.interface(handler: { daemon.handler(for: $0) }, property: daemon.property)]))
    switch try await connection.requestName(DeeplinkerAPI.busName) {
    case .primaryOwner, .alreadyOwner:
        logger.info("serving \(DeeplinkerAPI.busName) as \(connection.uniqueName)")
        // The handler entries' names, once the daemon is the daemon (SPEC §8); a launcher that
        // activated the daemon through one of them is answered once it is taken.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            core.onLoop { core in core.serveHandlerEntries { done.resume() } }
        }
    case .exists, .inQueue:
        throw DaemonError.nameTaken(name: DeeplinkerAPI.busName, owner: try? await connection.nameOwner(DeeplinkerAPI.busName))
    }
}

/// Routes clicks on notifications the daemon posted (SPEC §3, Notifications).
private func subscribeToNotificationServer(
    _ connection: DBusConnection, core: DaemonCore
) async throws {
    let server = NotificationServer.self
    async let tokens = connection.subscribe(MatchRule(sender: server.name, interface: server.name, member: "ActivationToken", path: server.path)) { _, args in
        guard args.count == 2, let id = args[0].uint32Value, let token = args[1].stringValue else { return }
        core.onLoop { core in core.activationToken(token, notification: id) }
    }
    async let clicks = connection.subscribe(MatchRule(sender: server.name, interface: server.name, member: "ActionInvoked", path: server.path)) { _, args in
        guard args.count == 2, let id = args[0].uint32Value, let action = args[1].stringValue else { return }
        // In bus order with NotificationClosed: a click after the close routes nothing.
        core.onLoop { core in core.notificationClicked(id: id, action: action) }
    }
    async let closes = connection.subscribe(MatchRule(sender: server.name, interface: server.name, member: "NotificationClosed", path: server.path)) { _, args in
        guard let id = args.first?.uint32Value else { return }
        core.onLoop { core in core.notificationClosed(id) }
    }
    _ = try await (tokens, clicks, closes)
}
