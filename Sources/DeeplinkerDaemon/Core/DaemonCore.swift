import DBusKit
import DeeplinkerCore
import DeeplinkerProtocol
import DeeplinkerRouteFiles
import FoundationEssentials
import Glibc
import Logging

/// The daemon's state and rules in one actor: the route registry, the pending-deeplink engine and
/// the store. Every bus event and method goes through it, so the engine sees one event at a time
/// and the store receives writes in the engine's order. It runs on the bus connection's loop thread
/// (its executor), so handlers enter it without a thread hop.
actor DaemonCore {
    nonisolated let executor: DBusLoopExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    let connection: DBusConnection
    let store: any InvocationStore
    let logger: Logger
    let configuration: DaemonConfiguration
    /// The route-file search path, computed once from the configuration.
    let routeDirectories: [String]
    var registry: AppRegistry
    var engine: DeeplinkEngine
    /// App object paths → app ids, for lifecycle signals.
    var appsByPath: [String: String] = [:]
    /// Shortcut types each app published with `SetShortcuts` (absent: never published, all available).
    var published: [String: [String]] = [:]
    /// Notifications posted with `PostNotification` and not closed (mirrors the store), by server id.
    var postedNotifications: [UInt32: PostedNotification] = [:]
    /// The last committed state and owner of each app (mirrors the store): a refused write of a
    /// newer one puts the engine back to it (SPEC §6).
    var storedAppStates: [String: AppStateRecord] = [:]
    /// The latest check of each claimed domain (mirrors the store), for `GetLinkClaims`.
    var domainChecks: [DomainClaim: DomainCheck] = [:]
    /// Notifications whose record is being written, by server id, with the clicks and close that
    /// arrived meanwhile, in bus order: applied once the record commits, dropped if it is refused.
    var notificationsBeingWritten: [UInt32: [NotificationEvent]] = [:]
    /// Notifications whose close is being written: still remembered, but a click after the close
    /// (in bus order) routes nothing.
    var notificationsBeingClosed: Set<UInt32> = []
    /// Activation tokens from `ActivationToken`, by notification id, until the click arrives.
    var notificationTokens: [UInt32: String] = [:]
    /// Effect batches (signals, deliveries, launches) waiting for their commit to be written, in
    /// apply order; the outcome is the commit's own (``PendingCommit/writtenOutcome``). `held`:
    /// also waiting for the reply it follows (``release(_:)``).
    var awaitingCommit: [(id: UInt64, effects: [EngineEffect], commit: PendingCommit, held: Bool)] = []
    var nextBatchID: UInt64 = 0
    /// The name watch of each configured app; nil while it is being started.
    var nameWatches: [String: NameWatch?] = [:]
    /// Jobs waiting for the name watches being made (`Reload` replies).
    var nameWatchWaiters: [@Sendable () -> Void] = []
    let deliverer: Deliverer
    /// Deliveries, launches, raises and late replies in flight: a stop waits for them, bounded.
    let tasks = EffectTasks()
    let launcher: Launcher
    /// Start time, broken route files and the service manager link (`deeplinker status`, `STATUS=`).
    nonisolated let vitals: DaemonVitals
    /// Deadlines for `Daemon.sweep`, and the earliest one sent (nil: none pending).
    nonisolated let sweeps = SweepSchedule()
    var sweepDeadline: Int64?
    /// The connection that called `SetFocusedApp` last (focus-watch): its leaving clears the focus.
    var focusReporter: String?
    /// The scheme handler entries served on the bus: bus name `<app-id>.deeplinker` → app id.
    var handlerEntries: [String: String] = [:]
    /// The callers met so far, by unique name, with their rate windows.
    var callers = CallerDirectory()
    /// The process id of each identified caller, by unique name (`FocusReporter`'s command name).
    var processIDs: [String: UInt32] = [:]
    /// Launches being watched for taking, by app id: the launch's request time (SPEC §6, "A launch
    /// that does not take"); removed once the grace check finds the app running.
    var launchWatches: [String: Int64] = [:]

    init(
        connection: DBusConnection, store: any InvocationStore, registry: AppRegistry, engine: DeeplinkEngine,
        configuration: DaemonConfiguration, routeDirectories: [String], logger: Logger
    ) {
        self.connection = connection
        self.store = store
        self.registry = registry
        self.engine = engine
        self.configuration = configuration
        self.routeDirectories = routeDirectories
        self.logger = logger
        self.executor = connection.executor
        self.deliverer = Deliverer(connection: connection)
        self.launcher = Launcher(
            connection: connection, logger: logger, environment: configuration.environment, busAddress: configuration.busAddress)
        self.appsByPath = Self.paths(for: registry)
        self.vitals = DaemonVitals(configuration: configuration)
    }

    static func paths(for registry: AppRegistry) -> [String: String] {
        var out: [String: String] = [:]
        for id in registry.appIDs { out[DeeplinkerBus.objectPath(forAppID: id)] = id }
        return out
    }

    /// Installs a new registry (start-up and reload) and the policies derived from it.
    func install(_ registry: AppRegistry) {
        self.registry = registry
        appsByPath = Self.paths(for: registry)
        watchAppNames()
        serveHandlerEntries()
        engine.setPolicies(registry.policies)
        // An app whose `ready` changed may be active now (it owns its name, or has the focus).
        apply(engine.settleReadiness())
        // A changed `pending-ttl` moves the deadlines either way.
        scheduleSweep(rescheduled: true)
    }

    /// Stores the changes the effects carry, in order, and queues the rest to run once the commit
    /// is written (a delivery does not wait for the fsync: SPEC §6's `delivering` is recorded once
    /// committed). Returns the commit so a method can reply once it is durable.
    @discardableResult
    func apply(_ effects: [EngineEffect]) -> PendingCommit {
        applyEffects(effects, held: false).commit
    }

    /// ``apply(_:)`` whose effects also wait for ``release(_:)`` (the caller's reply goes first:
    /// SPEC §3, `SetAppState`); returns the commit and the batch's id.
    func applyHeld(_ effects: [EngineEffect]) -> (commit: PendingCommit, id: UInt64) {
        applyEffects(effects, held: true)
    }

    /// Lets a held batch's effects run (once its commit, and every earlier batch's, is known).
    func release(_ id: UInt64) {
        if let index = awaitingCommit.firstIndex(where: { $0.id == id }) { awaitingCommit[index].held = false }
        runSettledEffects()
    }

    private func applyEffects(_ effects: [EngineEffect], held: Bool) -> (commit: PendingCommit, id: UInt64) {
        let commit = store.enqueue(effects: effects)
        nextBatchID += 1
        let id = nextBatchID
        guard !effects.isEmpty else { return (commit, id) }
        // Only a newly waiting route can bring the next expiry forward; every other change
        // (delivered, expired, superseded) leaves it or moves it later.
        if effects.contains(where: { if case .statusChanged(let i) = $0 { i.status == .pending } else { false } }) {
            scheduleSweep()
        }
        awaitingCommit.append((id, effects, commit, held))
        commit.whenWritten { _ in
            // Inline on the bus thread, where the daemon's commits are written: the delivery and
            // the signals go out while the sync thread works, and before the reply, which the sync
            // thread's report brings to this thread later.
            self.onLoop { $0.runSettledEffects() }
        }
        return (commit, id)
    }

    /// Runs `job` on the core: inline when already on the bus thread (a reply callback), else queued there.
    nonisolated func onLoop(_ job: @escaping @Sendable (isolated DaemonCore) -> Void) {
        if executor.isCurrent {
            assumeIsolated { job($0) }
        } else {
            executor.execute { self.assumeIsolated { job($0) } }
        }
    }

    func publishedShortcuts(_ appID: String) -> Set<String>? {
        published[appID].map(Set.init)
    }

    func config(_ appID: String) -> AppConfig? {
        try? registry.config(appID)
    }
}

extension DaemonCore {
    /// Re-reads the route files. A broken file keeps that app's previous routes; its error is returned.
    func reload() throws(DeeplinkerError) {
        // The service manager hears of the reload around it (SPEC §9).
        vitals.notifier.notify(SystemdNotifier.reloading())
        defer {
            vitals.notifier.notify("READY=1")
            reportStatus()
        }
        let directories = routeDirectories
        let result = RouteDirectory.load(directories: directories)
        let (merged, errors) = RouteDirectory.merge(result, over: registry)
        install(merged)
        vitals.brokenRouteFiles = errors.map(\.description)
        vitals.routeFiles = RouteDirectory.served(result, over: vitals.routeFiles)
        refreshDesktopEntries()
        logger.info("loaded route files for \(merged.appIDs.count) apps from \(directories.joined(separator: ":"))")
        guard errors.isEmpty else {
            for error in errors { logger.error("\(error.description)") }
            throw .invalidConfig(errors.map(\.description).joined(separator: "; "))
        }
    }
}

extension DaemonCore {
    /// Tells the sweep about the engine's next expiry when it is earlier than the one scheduled (a
    /// later one only costs a wake-up that finds nothing and reschedules). `rescheduled` after a
    /// sweep, when the scheduled deadline has been used up.
    func scheduleSweep(rescheduled: Bool = false) {
        if rescheduled { sweepDeadline = nil }
        guard let next = engine.nextExpiry() else { return }
        if let scheduled = sweepDeadline, scheduled <= next { return }
        sweepDeadline = next
        sweeps.wake(at: next)
    }
}

extension DaemonCore {
    /// How many apps have a pending deeplink right now.
    var routesPending: Int {
        engine.pendingCount
    }

    /// Sends `STATUS=` (apps loaded, routes pending) to the service manager when it changed.
    func reportStatus() {
        guard vitals.notifier.isEnabled else { return }
        vitals.report(appsLoaded: registry.apps.count, routesPending: routesPending)
    }
}
