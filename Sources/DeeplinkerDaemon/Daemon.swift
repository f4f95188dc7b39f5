import DBusKit
import DeeplinkerCore
import DeeplinkerRouteFiles
import FoundationEssentials
import Glibc
import Logging
import ServiceLifecycle
import TaskThreads

/// The running daemon: owns `org.deeplinker.Deeplinker1` and runs the core until cancelled or shut
/// down gracefully (`deeplinkerd` maps SIGTERM/SIGINT to a graceful shutdown and SIGHUP to ``reload()``).
public final class Daemon: Service, Sendable {
    let connection: DBusConnection
    let store: any InvocationStore
    let core: DaemonCore
    let logger: Logger
    /// Reloads when a route file changes; armed before the name is taken, so no change is missed.
    let watcher: DirectoryWatcher
    /// The daemon's unique name on the bus.
    public var uniqueName: String { connection.uniqueName }

    /// The daemon on `connection`: the core over the loaded routes and the opened store. The commit
    /// pipeline runs on the bus thread: commits once it has dispatched the calls it read (one
    /// transaction for all of them), replies when the sync thread reports them durable.
    init(
        _ configuration: DaemonConfiguration, routes: RouteDirectory.Loaded,
        store: any InvocationStore, connection: DBusConnection, logger: Logger
    ) {
        let executor = connection.executor
        store.scheduleCommits(on: CommitExecutor(drainLater: executor.executeWhenIdle, execute: executor.execute))
        let engine = DeeplinkEngine(clock: configuration.clock, policies: routes.registry.policies)
        core = DaemonCore(
            connection: connection, store: store, registry: routes.registry, engine: engine, configuration: configuration,
            routeDirectories: routes.directories, logger: logger)
        core.vitals.brokenRouteFiles = routes.broken
        core.vitals.routeFiles = routes.served
        self.connection = connection
        self.store = store
        self.logger = logger
        self.watcher = Self.watchRouteFiles(core.routeDirectories, core: core, logger: logger)
    }

    /// Serves until cancelled or shut down gracefully; throws ``DaemonError/busLost`` at once when
    /// the bus connection goes away (SPEC §4: never linger unreachable), and
    /// ``DaemonError/syncFailed(_:)`` when a sync of the database failed (SPEC §9).
    public func run() async throws {
        // Ends the service at once: the bus went away (nil), or a sync failed (SPEC §9).
        let lost = AsyncStream<(any Error)?>.makeStream()
        connection.onDisconnect { lost.continuation.yield(nil) }
        if connection.isClosed { lost.continuation.yield(nil) }
        store.whenSyncFails { lost.continuation.yield($0) }
        let notifier = core.vitals.notifier
        core.onLoop { core in
            // Serving since `buildDaemon` took the name.
            core.vitals.notifier.notify("READY=1")
            core.reportStatus()
        }
        let (busLost, syncFailure) = await withTaskGroup(of: Void.self) { group -> (Bool, (any Error)?) in
            group.addTask { await self.sweep() }
            group.addTask { await self.keepWatchdogFed() }
            // Returns on cancellation, graceful shutdown (nil) or a lost bus or failed sync.
            let ended: (any Error)?? = await cancelWhenGracefulShutdown {
                for await reason in lost.stream { return .some(reason) }
                return nil
            }
            notifier.notify("STOPPING=1")
            switch ended {
            case .some(nil): logger.critical("lost the connection to the bus; exiting")
            case .some(.some(let error)): logger.critical("a sync of the state database failed, exiting: \(error)")
            case nil: logger.info("shutting down")
            }
            watcher.stop()
            core.sweeps.finish()
            // New calls are answered UnknownObject from now on; signals still reach the core
            // while deliveries in flight finish.
            connection.unexport(path: DeeplinkerAPI.objectPath)
            core.onLoop { core in core.unexportHandlerEntries() }
            group.cancelAll()
            if case .some(.none) = ended { return (true, nil) }
            return (false, ended ?? nil)
        }
        if let syncFailure {
            // Nothing more is acknowledged and nothing is checkpointed or closed: the next start's
            // recovery keeps what is really on disk.
            connection.close()
            throw DaemonError.syncFailed("\(syncFailure)")
        }
        // Deliveries, launches and raises in flight may finish (an acknowledgement is stored)
        // within the shutdown time; the rest are cut off when the connection closes: their
        // routes stay `delivering` and are delivered again, flagged, after the next start.
        let timeout = core.configuration.shutdownTimeout
        let cutOff = await core.tasks.drain(timeout: busLost ? .zero : timeout)
        if cutOff > 0 { logger.warning("stopping with \(cutOff) deliveries or launches unfinished after \(timeout)") }
        if !busLost { _ = try? await connection.releaseName(DeeplinkerAPI.busName) }
        connection.close()
        do {
            try await store.close()
        } catch {
            logger.error("closing the state database: \(error)")
        }
        if busLost { throw DaemonError.busLost }
    }

    /// Expires each waiting route when it passes its `pending-ttl`, so `InvocationChanged` reports
    /// it: sleeps until the deadline the core last sent, and not at all while nothing waits.
    private func sweep() async {
        let clock = core.configuration.clock
        let core = self.core
        var timer: Task<Void, Never>?
        for await deadline in core.sweeps.deadlines {
            timer?.cancel()
            // `expireStale` expires what is *older* than the TTL: a millisecond past the deadline.
            let delay = Duration.microseconds(max(0, deadline - clock.nowMicroseconds()) + 1_000)
            timer = Task {
                guard (try? await TimerThread.shared.sleep(for: delay)) != nil else { return }
                core.onLoop { core in core.expireStale() }
            }
        }
        timer?.cancel()
    }

    /// Pings systemd's watchdog at half `WATCHDOG_USEC` from the event queue, which runs on the
    /// thread that serves the bus: a wedged bus thread or core stops the pings, and so does a
    /// sync of the database that has hung for longer than that (the disk stopped answering; the
    /// commits keep their callers waiting), so systemd restarts the daemon.
    private func keepWatchdogFed() async {
        let notifier = core.vitals.notifier
        guard let interval = notifier.watchdogInterval else { return }
        let store = self.store
        while !Task.isCancelled {
            core.onLoop { core in
                if let hung = store.syncRunningFor, hung > interval {
                    core.logger.error("not feeding the watchdog: the state database's sync has hung for \(hung)")
                } else {
                    notifier.notify("WATCHDOG=1")
                }
            }
            try? await TimerThread.shared.sleep(for: interval)
        }
    }

    /// Reloads when a route file in the search path changes, or a folder of it appears or goes away.
    private static func watchRouteFiles(_ directories: [String], core: DaemonCore, logger: Logger) -> DirectoryWatcher {
        DirectoryWatcher(directories: directories, onFailure: { logger.warning("\($0)") }, onNotice: { logger.info("\($0)") }) {
            core.onLoop { core in
                do throws(DeeplinkerError) {
                    try core.reload()
                } catch {
                    core.logger.error("reload after a change: \(error.message)")
                }
            }
        }
    }

    /// Re-reads the route files, as `Reload` does (SIGHUP); errors are logged.
    public func reload() {
        core.onLoop { core in
            do throws(DeeplinkerError) {
                try core.reload()
            } catch {
                core.logger.error("reload: \(error.message)")
            }
        }
    }
}
