import ArgumentParser
import DeeplinkerCore

/// `deeplinker desktop-entry ID`: prints the app's desktop entry, from its route file.
struct DesktopEntryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "desktop-entry",
        abstract: "Print a desktop entry that routes the app's links and shortcuts through deeplinker.",
        discussion: """
            The schemes and shortcuts come from the app's route file (--config-dir DIR, else
            the search path). Pass --shortcut for each published shortcut to list only those.

            EXAMPLE:
              deeplinker desktop-entry com.bestrecipes.App > com.bestrecipes.App.desktop
            """)

    @Argument(help: "The app id.") var appID: String
    @Option(name: .customLong("shortcut"), help: ArgumentHelp("List only these shortcuts as actions (repeatable).", valueName: "TYPE"))
    var shortcuts: [String] = []
    @Option(name: .customLong("exec"), help: ArgumentHelp("The deeplinker program to put in Exec.", valueName: "PATH"))
    var executable = "deeplinker"
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let config = try RouteFiles.config(appID: appID, configDir: options.configDir)
        let text = DesktopEntry.render(config: config, shortcuts: shortcuts.isEmpty ? nil : shortcuts, executable: executable)
        if options.json {
            struct JSONOutput: Codable { var file: String; var contents: String }
            return Output.json(JSONOutput(file: "\(appID).desktop", contents: text))
        }
        FileOutput.write(text)
    }
}
