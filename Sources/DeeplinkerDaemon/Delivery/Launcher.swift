import DBusKit
import DeeplinkerCore
import FoundationEssentials
import Glibc
import Logging
import DeeplinkerProtocol
import TaskThreads

/// Brings an app to the user (SPEC §6): starts one that is not running per its `launch` setting, and
/// raises one that runs but is not active with `org.freedesktop.Application.Activate`.
final class Launcher: Sendable {
    let connection: DBusConnection
    let logger: Logger
    /// The daemon's environment; a launched process gets it minus the service manager's variables.
    let environment: [String: String]
    /// The bus the daemon serves when not the session bus: launched apps must join the same one.
    let busAddress: String?
    /// Apps whose "nothing to launch" was logged already (logged once per app).
    private let reportedUnlaunchable = LockedValue(Set<String>())

    /// Variables that belong to the daemon's own service and must never reach an app (SPEC §6).
    static let serviceVariables: Set<String> = [
        "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
        "JOURNAL_STREAM", "INVOCATION_ID", "MANAGERPID", "SYSTEMD_EXEC_PID", "MAINPID",
        "XDG_ACTIVATION_TOKEN", "DESKTOP_STARTUP_ID",
    ]

    init(connection: DBusConnection, logger: Logger, environment: [String: String], busAddress: String?) {
        self.connection = connection
        self.logger = logger
        self.environment = environment
        self.busAddress = busAddress
    }

    /// Starts the app per `mode`; never waits on the app itself. `opensByDelivery`: the summons
    /// carries a route of an `open` app, whose own `Open` starts a bus-activatable app (SPEC §6),
    /// so nothing is started here then (``LaunchStart/byDelivery``). `failed` is called (once, from
    /// any thread) when the launch is known not to take: the program could not start, the bus
    /// refused the activation, or the process ended unsuccessfully.
    func launch(
        _ summons: Summons, mode: LaunchMode, opensByDelivery: Bool = false, failed: @escaping @Sendable (String) -> Void
    ) async -> LaunchStart {
        let appID = summons.appID
        switch mode {
        case .none:
            return .nothing
        case .dbus:
            if await isActivatable(appID) { return activate(summons, opensByDelivery: opensByDelivery, failed: failed) }
            reportOnce(appID, "\(appID) is not bus-activatable; its route waits until it runs")
            return .nothing
        case .auto:
            if await isActivatable(appID) { return activate(summons, opensByDelivery: opensByDelivery, failed: failed) }
            if let entry = installedEntry(appID) {
                return await launch(summons, entry: entry, opensByDelivery: opensByDelivery, failed: failed)
            }
            reportOnce(appID, "\(appID) is neither bus-activatable nor has a desktop entry; its route waits until it runs")
            return .nothing
        case .desktop:
            guard let entry = installedEntry(appID) else {
                reportOnce(appID, "\(appID) has no installed desktop entry \(appID).desktop; its route waits until it runs")
                return .nothing
            }
            return await launch(summons, entry: entry, opensByDelivery: opensByDelivery, failed: failed)
        case .command(let argv):
            return await spawn(argv, for: summons, directory: nil, how: "by its launch command", failed: failed)
        }
    }

    /// Whether the bus can start `appID` (a D-Bus service file names it).
    private func isActivatable(_ appID: String) async -> Bool {
        do {
            return try await connection.listActivatableNames().contains(appID)
        } catch {
            logger.warning("could not list the bus's activatable names: \(error)")
            return false
        }
    }

    /// D-Bus activation as the Desktop Entry spec defines it: `org.freedesktop.Application.Activate`
    /// on the app's well-known name, which the bus starts, so a GApplication comes up with a window
    /// rather than as a windowless service (SPEC §6). A name that does not implement
    /// `org.freedesktop.Application` was started by the call all the same (the bus starts it to
    /// deliver it), as `StartServiceByName` would. For an `open` app's route the delivery's own
    /// `Open` starts the app instead.
    private func activate(_ summons: Summons, opensByDelivery: Bool, failed: @escaping @Sendable (String) -> Void) -> LaunchStart {
        let appID = summons.appID
        let how = "by D-Bus activation of \(appID)"
        if opensByDelivery { return .byDelivery(how: how + " (Open)") }
        var data: [String: DBusValue] = [:]
        if let token = summons.activationToken, !token.isEmpty { data[PlatformDataKey.activationToken] = .string(token) }
        if let id = summons.desktopStartupID, !id.isEmpty { data[PlatformDataKey.desktopStartupID] = .string(id) }
        if let id = summons.invocationID { data[PlatformDataKey.invocationID] = .string(id) }
        let logger = self.logger
        do {
            let message = try DBusMessage.methodCall(
                destination: appID, path: DeeplinkerBus.objectPath(forAppID: appID), interface: DeeplinkerBus.applicationInterface,
                member: "Activate", arguments: [.variantDictionary(data)], noAutoStart: false)
            connection.startCall(message, timeout: Self.activationTimeout) { reply in
                switch reply {
                case .success:
                    logger.info("started \(appID) \(how) (Activate)")
                case .failure(let error) where Self.notAnApplication.contains(error.name):
                    logger.info("started \(appID) \(how); it does not implement org.freedesktop.Application (\(error.name))")
                case .failure(let error):
                    failed("it was started \(how) (Activate), which failed: \(error.name): \(error.message)")
                }
            }
        } catch {
            failed("it was started \(how) (Activate), which could not be sent: \(error.name): \(error.message)")
        }
        return .started(LaunchedApp(how: how + " (Activate)"))
    }

    /// How long the bus may take to start an app and the app to answer `Activate` (the bus's own
    /// activation time-out is 25 s).
    static let activationTimeout: Duration = .seconds(25)

    /// Errors that say the started name does not implement `org.freedesktop.Application`: it runs.
    static let notAnApplication: Set<String> = [
        DBusError.unknownMethodName, "org.freedesktop.DBus.Error.UnknownInterface", "org.freedesktop.DBus.Error.UnknownObject",
    ]

    /// The app's own installed entry, never one Deeplinker wrote (an override leads to its source).
    private func installedEntry(_ appID: String) -> LocatedDesktopEntry? {
        DesktopEntryLocator.installedEntry(appID: appID, environment: environment, read: WrittenDesktopEntry.read)
    }

    /// Launches from a desktop entry: D-Bus activation for `DBusActivatable=true`, else its `Exec`.
    private func launch(
        _ summons: Summons, entry: LocatedDesktopEntry, opensByDelivery: Bool, failed: @escaping @Sendable (String) -> Void
    ) async -> LaunchStart {
        let appID = summons.appID
        if entry.file.value("DBusActivatable") == "true" {
            return activate(summons, opensByDelivery: opensByDelivery, failed: failed)
        }
        guard let exec = entry.file.value("Exec") else {
            let reason = "\(entry.path) has no Exec"
            logger.warning("cannot start \(appID): \(reason)")
            failed("it cannot be started: \(reason)")
            return .nothing
        }
        let context = DesktopExec.Context(
            url: summons.url, icon: entry.file.value("Icon"), name: entry.file.value("Name"), entryPath: entry.path)
        do throws(DesktopExec.SyntaxError) {
            let argv = try DesktopExec.argv(exec, context: context)
            return await spawn(
                argv, for: summons, directory: entry.file.value("Path").flatMap { $0.isEmpty ? nil : $0 },
                how: "from \(entry.path)", failed: failed)
        } catch {
            logger.warning("cannot start \(appID) from \(entry.path): \(error)")
            failed("it cannot be started from \(entry.path): \(error)")
            return .nothing
        }
    }

    /// The environment of a launched app: the daemon's without its service variables, the bus the
    /// daemon serves, and the invocation's activation token and startup id when known.
    func appEnvironment(_ summons: Summons) -> [String: String] {
        var env = environment.filter { !Self.serviceVariables.contains($0.key) }
        if let busAddress { env["DBUS_SESSION_BUS_ADDRESS"] = busAddress }
        if let token = summons.activationToken, !token.isEmpty { env["XDG_ACTIVATION_TOKEN"] = token }
        if let id = summons.desktopStartupID, !id.isEmpty { env["DESKTOP_STARTUP_ID"] = id }
        return env
    }

    /// Spawns `argv` in its own session, then moves it into its own transient scope when systemd
    /// manages the session. A process that ends unsuccessfully is reported to `failed` (whether
    /// the app became ready meanwhile is the caller's to judge); one that exits 0 may have handed
    /// over to an instance already running, so only the launch's grace decides then.
    private func spawn(
        _ argv: [String], for summons: Summons, directory: String?, how: String, failed: @escaping @Sendable (String) -> Void
    ) async -> LaunchStart {
        let appID = summons.appID
        let logger = self.logger
        let program = argv.first ?? ""
        let launched = LaunchedApp(how: "\(how) (\(program))")
        let pid: pid_t
        do throws(AppProcess.SpawnError) {
            pid = try AppProcess.spawn(argv, environment: appEnvironment(summons), directory: directory) { termination in
                launched.ended(termination)
                logger.debug("\(appID) (\(program)) \(termination)")
                if termination != .exited(0) { failed("it was started \(launched.how), and its process \(termination)") }
            }
        } catch {
            failed("it was to be started \(launched.how), which could not start: \(error.reason)")
            return .started(launched)
        }
        launched.spawned()
        logger.info("started \(appID) as process \(pid) (\(program))")
        await TransientScope.adopt(pid: UInt32(pid), appID: appID, connection: connection, logger: logger)
        return .started(launched)
    }

    /// Asks a running app to come to the front: `Activate(a{sv} platform_data)` on its owner with
    /// NO_AUTO_START. A failure is logged and changes nothing else. The call is queued on the
    /// connection before this returns, so a delivery started after it reaches the app after it
    /// (`Activate`, then `ActivateAction`, SPEC §6).
    func raise(_ summons: Summons) {
        guard let owner = summons.owner else { return }
        var data: [String: DBusValue] = [:]
        if let token = summons.activationToken { data[PlatformDataKey.activationToken] = .string(token) }
        if let id = summons.desktopStartupID { data[PlatformDataKey.desktopStartupID] = .string(id) }
        if let id = summons.invocationID { data[PlatformDataKey.invocationID] = .string(id) }
        let (appID, logger) = (summons.appID, self.logger)
        do {
            let message = try DBusMessage.methodCall(
                destination: owner, path: DeeplinkerBus.objectPath(forAppID: appID), interface: DeeplinkerBus.applicationInterface,
                member: "Activate", arguments: [.variantDictionary(data)], noAutoStart: true)
            connection.startCall(message, timeout: .seconds(5)) { result in
                switch result {
                case .success: logger.debug("raised \(appID) (\(owner))")
                case .failure(let error): logger.notice("could not raise \(appID) (\(owner)): \(error.name): \(error.message)")
                }
            }
        } catch {
            logger.notice("could not raise \(appID) (\(owner)): \(error.name): \(error.message)")
        }
    }

    private func reportOnce(_ appID: String, _ message: String) {
        let first = reportedUnlaunchable.withLock { $0.insert(appID).inserted }
        if first { logger.notice("\(message)") }
    }
}
