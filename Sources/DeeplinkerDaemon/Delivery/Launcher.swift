import DBusKit
import DeeplinkerCore
import Foundation
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

    /// Starts the app per `mode`; never waits on the app itself.
    func launch(_ summons: Summons, mode: LaunchMode) async {
        let appID = summons.appID
        switch mode {
        case .none:
            return
        case .dbus:
            if await !activate(appID) { reportOnce(appID, "\(appID) is not bus-activatable; its route waits until it runs") }
        case .auto:
            if await activate(appID) { return }
            if let entry = installedEntry(appID) {
                await launch(summons, entry: entry)
            } else {
                reportOnce(appID, "\(appID) is neither bus-activatable nor has a desktop entry; its route waits until it runs")
            }
        case .desktop:
            guard let entry = installedEntry(appID) else {
                reportOnce(appID, "\(appID) has no installed desktop entry \(appID).desktop; its route waits until it runs")
                return
            }
            await launch(summons, entry: entry)
        case .command(let argv):
            await spawn(argv, for: summons, directory: nil)
        }
    }

    /// `StartServiceByName` when the bus can start the app; false when it cannot.
    private func activate(_ appID: String) async -> Bool {
        do {
            guard try await connection.listActivatableNames().contains(appID) else { return false }
            _ = try await connection.startServiceByName(appID)
            logger.info("started \(appID) by D-Bus activation")
        } catch {
            logger.warning("could not start \(appID) by D-Bus activation: \(error)")
        }
        return true
    }

    /// The app's own installed entry, never one Deeplinker wrote (an override leads to its source).
    private func installedEntry(_ appID: String) -> LocatedDesktopEntry? {
        DesktopEntryLocator.installedEntry(appID: appID, environment: environment, read: WrittenDesktopEntry.read)
    }

    /// Launches from a desktop entry: D-Bus activation for `DBusActivatable=true`, else its `Exec`.
    private func launch(_ summons: Summons, entry: LocatedDesktopEntry) async {
        let appID = summons.appID
        if entry.file.value("DBusActivatable") == "true" {
            do {
                _ = try await connection.startServiceByName(appID)
                logger.info("started \(appID) by D-Bus activation (\(entry.path) is DBusActivatable)")
            } catch {
                logger.warning("could not start \(appID) by D-Bus activation (\(entry.path)): \(error)")
            }
            return
        }
        guard let exec = entry.file.value("Exec") else {
            logger.warning("cannot start \(appID): \(entry.path) has no Exec")
            return
        }
        let context = DesktopExec.Context(
            url: summons.url, icon: entry.file.value("Icon"), name: entry.file.value("Name"), entryPath: entry.path)
        do throws(DesktopExec.SyntaxError) {
            let argv = try DesktopExec.argv(exec, context: context)
            await spawn(argv, for: summons, directory: entry.file.value("Path").flatMap { $0.isEmpty ? nil : $0 })
        } catch {
            logger.warning("cannot start \(appID) from \(entry.path): \(error)")
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
    /// manages the session.
    private func spawn(_ argv: [String], for summons: Summons, directory: String?) async {
        let appID = summons.appID
        let logger = self.logger
        let pid: pid_t
        do throws(AppProcess.SpawnError) {
            pid = try AppProcess.spawn(argv, environment: appEnvironment(summons), directory: directory) { termination in
                logger.debug("\(appID) (\(argv.first ?? "")) \(termination)")
            }
        } catch {
            logger.warning("could not start \(appID): \(error)")
            return
        }
        logger.info("started \(appID) as process \(pid) (\(argv.first ?? ""))")
        await TransientScope.adopt(pid: UInt32(pid), appID: appID, connection: connection, logger: logger)
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
