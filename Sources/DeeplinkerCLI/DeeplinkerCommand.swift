import ArgumentParser
import DeeplinkerCore
import FoundationEssentials
import Glibc

/// The `deeplinker` root command: verbs that invoke apps through the daemon, query it, explain
/// and check route files offline, integrate with the desktop, and act as an app.
public struct DeeplinkerCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "deeplinker",
        abstract: "Invoke apps through the Deeplinker daemon, inspect it, and check route files.",
        discussion: """
            EXAMPLES:
              deeplinker open bestrecipes://recipe/12
              deeplinker open --app com.bestrecipes.App https://bestrecipes.com/recipe/12
              deeplinker notify com.bestrecipes.App '{"type": "recipe", "id": "7"}'
              deeplinker shortcut com.bestrecipes.App com.bestrecipes.favorites
              deeplinker pending com.bestrecipes.App --json
              deeplinker route com.bestrecipes.App bestrecipes://recipe/12 --offline
              deeplinker check ~/.config/deeplinker/apps/*.toml
              deeplinker simulate-app com.bestrecipes.App --active

            Global options (--bus-address ADDR, --json, --config-dir DIR) go after the verb.

            \(ExitStatus.table)
            """,
        version: DeeplinkerVersion.current,
        subcommands: [
            OpenCommand.self, NotifyCommand.self, ShortcutCommand.self, LaunchCommand.self, ActivityCommand.self,
            PendingCommand.self, DiscardCommand.self, HistoryCommand.self, ShowCommand.self, MonitorCommand.self, AppsCommand.self,
            StateCommand.self, RouteCommand.self, CheckCommand.self, DesktopEntryCommand.self,
            InstallDesktopCommand.self, SimulateAppCommand.self, PostNotificationCommand.self,
            UninstallDesktopCommand.self,
            ReloadCommand.self, StatusCommand.self,
            FocusWatchCommand.self,
            DoctorCommand.self, TopCommand.self,
            VerifyCommand.self, ApproveDomainCommand.self, RevokeDomainCommand.self,
            NativeHostCommand.self, InstallBrowserCommand.self, UninstallBrowserCommand.self,
            InstallGnomeExtensionCommand.self, UninstallGnomeExtensionCommand.self,
        ]
    )

    public init() {}

    /// Parses the command line, runs the verb and exits with the documented status: usage errors
    /// are 2 (not ArgumentParser's 64), `CLIFailure`s their own status.
    /// (`arguments` nil = the process's; a distinct label so that it is not confused with
    /// ArgumentParser's own `main`, which exits 64 on usage errors.)
    public static func main(arguments: [String]?) async {
        let status: Int32
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            status = ExitStatus.ok.rawValue
        } catch let failure as CLIFailure {
            Output.error("deeplinker: \(failure.message)")
            status = failure.status.rawValue
        } catch let code as ExitCode {
            status = code.rawValue
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { Output.line(message) }
                status = 0
            } else {
                if !message.isEmpty { Output.error(message) }
                status = code == .validationFailure ? ExitStatus.usage.rawValue : code.rawValue
            }
        }
        Glibc.exit(status)
    }
}
