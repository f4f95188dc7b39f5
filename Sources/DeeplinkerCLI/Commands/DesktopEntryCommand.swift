import ArgumentParser
import DeeplinkerCore

/// `deeplinker desktop-entry ID`: prints what `install-desktop` would write for the app's own
/// entry: an override of its installed entry, or a minimal entry.
struct DesktopEntryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "desktop-entry",
        abstract: "Print the desktop entry install-desktop would write for the app's own entry.",
        discussion: """
            When the app has an installed entry (ID.desktop on $XDG_DATA_HOME and $XDG_DATA_DIRS,
            found the way launchers find it), this is an override of it that keeps every group,
            key, translation and comment and changes only Exec (deeplinker launch ID),
            DBusActivatable (removed), Actions (the shortcuts) and X-Deeplinker-Source. Otherwise
            it is a minimal entry of deeplinker's own. Shortcuts come from the route file
            (--config-dir DIR, else the search path); pass --shortcut for each published one to
            list only those.

            EXAMPLE:
              deeplinker desktop-entry com.bestrecipes.App
            """)

    @Argument(help: "The app id.") var appID: String
    @Option(name: .customLong("shortcut"), help: ArgumentHelp("List only these shortcuts as actions (repeatable).", valueName: "TYPE"))
    var shortcuts: [String] = []
    @Option(name: .customLong("exec"), help: ArgumentHelp("The absolute path of deeplinker to put in Exec (default: this program).", valueName: "PATH"))
    var executable: String?
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let config = try RouteFiles.config(appID: appID, configDir: options.configDir)
        let installation = try DesktopInstallation(appID: appID)
        let executable = try DesktopInstallation.executable(option: executable)
        let installed = installation.installed
        let text = DesktopEntry.appEntry(
            config: config, installed: installed, shortcuts: shortcuts.isEmpty ? nil : shortcuts, executable: executable
        ).rendered()
        if options.json {
            struct JSONOutput: Codable { var file: String; var source: String?; var contents: String }
            return Output.json(JSONOutput(file: installation.entryPath, source: installed?.path, contents: text))
        }
        FileOutput.write(text)
    }
}
