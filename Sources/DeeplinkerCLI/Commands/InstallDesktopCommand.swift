import ArgumentParser
import DeeplinkerCore
import Foundation

/// `deeplinker install-desktop ID`: writes the desktop entry to `$XDG_DATA_HOME/applications/`
/// and makes it the default handler of the app's schemes with `xdg-mime default`.
struct InstallDesktopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-desktop",
        abstract: "Install the app's desktop entry and register it for the app's URL schemes.",
        discussion: """
            Writes $XDG_DATA_HOME/applications/ID.desktop (default ~/.local/share), runs
            update-desktop-database there, and `xdg-mime default ID.desktop x-scheme-handler/S`
            for each scheme, so that `xdg-open S://...` and `gio open S://...` reach the daemon.

            EXAMPLE:
              deeplinker install-desktop com.bestrecipes.App
            """)

    @Argument(help: "The app id.") var appID: String
    @Option(name: .customLong("shortcut"), help: ArgumentHelp("List only these shortcuts as actions (repeatable).", valueName: "TYPE"))
    var shortcuts: [String] = []
    @Option(name: .customLong("exec"), help: ArgumentHelp("The deeplinker program to put in Exec.", valueName: "PATH"))
    var executable = "deeplinker"
    @OptionGroup var options: GlobalOptions

    struct JSONOutput: Codable {
        var file: String
        var schemes: [String]
    }

    func run() async throws {
        let config = try RouteFiles.config(appID: appID, configDir: options.configDir)
        let text = DesktopEntry.render(config: config, shortcuts: shortcuts.isEmpty ? nil : shortcuts, executable: executable)
        let file = DesktopEntry.installedPath(appID: appID, environment: ProcessInfo.processInfo.environment)
            ?? NSHomeDirectory() + "/.local/share/applications/\(appID).desktop"
        let directory = (file as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw CLIFailure(.failure, "cannot write \(file): \(error.localizedDescription)")
        }
        _ = try? runTool("update-desktop-database", [directory])
        for scheme in DesktopEntry.handlerSchemes(config) {
            let status = try runTool("xdg-mime", ["default", "\(appID).desktop", "x-scheme-handler/\(scheme)"])
            guard status == 0 else {
                throw CLIFailure(.failure, "xdg-mime default \(appID).desktop x-scheme-handler/\(scheme) failed with status \(status)")
            }
        }
        if options.json { return Output.json(JSONOutput(file: file, schemes: DesktopEntry.handlerSchemes(config))) }
        Output.line("wrote \(file)")
        for scheme in DesktopEntry.handlerSchemes(config) { Output.line("default handler for x-scheme-handler/\(scheme)") }
    }

    /// Runs a tool found on PATH, its output going to our stderr; returns its exit status.
    private func runTool(_ name: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [name] + arguments
        process.standardOutput = FileHandle.standardError
        do {
            try process.run()
        } catch {
            throw CLIFailure(.failure, "cannot run \(name): \(error.localizedDescription)")
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
