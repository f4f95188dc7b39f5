import ArgumentParser
import DeeplinkerClient

/// `deeplinker shortcut ID TYPE`: a launcher quick action.
struct ShortcutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shortcut",
        abstract: "Perform one of an app's launcher shortcuts (quick actions).",
        discussion: """
            EXAMPLE:
              deeplinker shortcut com.bestrecipes.App com.bestrecipes.favorites
            """)

    @Argument(help: "The app id.") var appID: String
    @Argument(help: "The shortcut type, as in the route file's [[shortcuts]].") var type: String
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let platform = DaemonSession.platformData()
        let reply = try await DaemonSession.run(options) { try await $0.invoke(appID: appID, source: "shortcut", input: type, platformData: platform) }
        InvocationOutput(appID: appID, reply: reply).print(json: options.json)
    }
}
