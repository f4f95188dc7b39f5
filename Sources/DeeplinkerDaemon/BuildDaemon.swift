import DBusKit
import DeeplinkerCore
import DeeplinkerRouteFiles
import Foundation
import Logging

/// Connects, opens the store, loads the route files, recovers state, exports the API and takes
/// the well-known name. `deeplinkerd` and the tests both start the daemon through this.
///
/// The store is opened and its state read on another thread while the bus connection is made, the
/// name checked, the route files read and the subscriptions sent: the two paths cost about the
/// same (README, "Cold start"), and cold start is a goal (SPEC §9, ≤ 15 ms to the first reply).
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
        return try await assemble(configuration, connection: connection, opening: opening, logger: logger)
    } catch {
        await StoredState.discard(opening)
        connection.close()
        throw error
    }
}

private func assemble(
    _ configuration: DaemonConfiguration, connection: DBusConnection, opening: Task<StoredState, any Error>, logger: Logger
) async throws -> Daemon {
    async let existingOwner = connection.nameOwner(DeeplinkerAPI.busName)
    let directories = configuration.routeDirectories
    let loaded = RouteDirectory.load(directories: directories)
    if let owner = try await existingOwner {
        throw DaemonError.nameTaken(name: DeeplinkerAPI.busName, owner: owner)
    }
    let (registry, errors) = RouteDirectory.merge(loaded, over: AppRegistry())
    for error in errors { logger.error("\(error.description)") }
    logger.info("loaded route files for \(registry.appIDs.count) apps from \(directories.joined(separator: ":"))")
    return try await start(
        configuration, registry: registry, brokenRouteFiles: errors.map(\.description), directories: directories,
        opening: opening, connection: connection, logger: logger)
}

/// Subscribes, recovers the engine from the stored state, exports the API and takes the name. The
/// bus calls go out together, in three round trips in all (subscriptions, owners, the name) rather
/// than one per call.
private func start(
    _ configuration: DaemonConfiguration, registry: AppRegistry, brokenRouteFiles: [String], directories: [String],
    opening: Task<StoredState, any Error>, connection: DBusConnection, logger: Logger
) async throws -> Daemon {
    let stored = try await opening.value
    let store = stored.store
    // Commits run on the bus thread once it has dispatched the calls it read: one transaction for
    // all of them, and no thread to wake on the way to the replies.
    let executor = connection.executor
    store.scheduleCommits { drain in executor.executeWhenIdle(drain) }
    let engine = DeeplinkEngine(clock: configuration.clock, policies: registry.policies)
    let core = DaemonCore(
        connection: connection, store: store, registry: registry, engine: engine, configuration: configuration,
        routeDirectories: directories, logger: logger)
    core.vitals.brokenRouteFiles = brokenRouteFiles
    let daemon = Daemon(connection: connection, store: store, core: core, logger: logger)
    do {
        return try await serve(daemon, registry: registry, stored: stored, connection: connection, logger: logger)
    } catch {
        daemon.watcher.stop()
        throw error
    }
}

/// Subscribes, recovers the engine, exports the API and takes the name.
private func serve(
    _ daemon: Daemon, registry: AppRegistry, stored: StoredState, connection: DBusConnection, logger: Logger
) async throws -> Daemon {
    let events = daemon.events
    let (posted, snapshot, published) = (stored.posted, stored.snapshot, stored.published)
    // Posted notifications are in the core before any click can be queued behind them.
    events.submit { core in core.postedNotifications = posted }
    // Subscribe before reading owners, so no change falls between the two: one arg0 rule per
    // configured app (later registries are watched by `DaemonCore.watchAppNames`), the lifecycle
    // signals and the notification server, all in flight at once.
    async let appWatches = DaemonCore.subscribeToNames(registry.appIDs, on: connection) { name, newOwner in
        events.submit { core in core.ownerChanged(name: name, newOwner: newOwner) }
    }
    async let lifecycle = connection.subscribe(MatchRule(interface: DeeplinkerAPI.lifecycleInterface)) { message, _ in
        guard let path = message.path, let member = message.member, let sender = message.sender else { return }
        events.submit { core in core.lifecycleSignal(path: path, member: member, sender: sender) }
    }
    async let notificationServer: Void = subscribeToNotificationServer(connection, events: events)
    var watched: [String: UInt64?] = [:]
    for (app, result) in await appWatches { watched[app] = try result.get() }
    _ = try await lifecycle
    try await notificationServer
    let tokens = watched
    events.submit { core in core.watchedNames = tokens }

    var apps = Set(registry.appIDs)
    for invocation in snapshot.openInvocations { apps.insert(invocation.appID) }
    for record in snapshot.appStates { apps.insert(record.appID) }
    let lookups = apps.sorted().map { app in Task { (app, try? await connection.nameOwner(app)) } }
    var owners: [String: String] = [:]
    for lookup in lookups {
        let (app, owner) = await lookup.value
        if let owner { owners[app] = owner }
    }
    let currentOwners = owners
    events.submit { core in
        core.published = published
        core.apply(core.engine.recover(from: snapshot, currentOwners: currentOwners))
        core.scheduleSweep()
        // Apps already running but not restored (no matching record) are at least running.
        for (app, owner) in currentOwners where core.engine.state(of: app) == .notRunning {
            core.ownerChanged(name: app, newOwner: owner)
        }
    }
    // Written desktop entries follow the installed entries they came from (SPEC §8).
    events.submit { core in core.refreshDesktopEntries() }

    try connection.export(DBusObject(
        path: DeeplinkerAPI.objectPath,
        interfaces: [DeeplinkerAPI.interface(handler: { daemon.handler(for: $0) }, property: daemon.property)]))
    switch try await connection.requestName(DeeplinkerAPI.busName) {
    case .primaryOwner, .alreadyOwner:
        logger.info("serving \(DeeplinkerAPI.busName) as \(connection.uniqueName)")
        return daemon
    case .exists, .inQueue:
        throw DaemonError.nameTaken(name: DeeplinkerAPI.busName, owner: try? await connection.nameOwner(DeeplinkerAPI.busName))
    }
}

/// Routes clicks on notifications the daemon posted (SPEC §3, Notifications).
private func subscribeToNotificationServer(
    _ connection: DBusConnection, events: EventQueue
) async throws {
    let server = NotificationServer.self
    async let tokens = connection.subscribe(MatchRule(sender: server.name, interface: server.name, member: "ActivationToken", path: server.path)) { _, args in
        guard args.count == 2, let id = args[0].uint32Value, let token = args[1].stringValue else { return }
        events.submit { core in core.activationToken(token, notification: id) }
    }
    async let clicks = connection.subscribe(MatchRule(sender: server.name, interface: server.name, member: "ActionInvoked", path: server.path)) { _, args in
        guard args.count == 2, let id = args[0].uint32Value, let action = args[1].stringValue else { return }
        // In bus order with NotificationClosed: a click after the close routes nothing.
        events.submit { core in core.notificationClicked(id: id, action: action) }
    }
    async let closes = connection.subscribe(MatchRule(sender: server.name, interface: server.name, member: "NotificationClosed", path: server.path)) { _, args in
        guard let id = args.first?.uint32Value else { return }
        events.submit { core in core.notificationClosed(id) }
    }
    _ = try await (tokens, clicks, closes)
}
