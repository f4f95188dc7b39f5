import ArgumentParser
import DeeplinkerClient
import DeeplinkerProtocol

/// `deeplinker activity ID URL`: continue a web activity (App-Clip style); an empty URL means
/// "returned without an invocation URL" (a `restore` route when the app enables it).
struct ActivityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity",
        abstract: "Continue a web activity (browsing-web) with its webpage URL.",
        discussion: """
            EXAMPLES:
              deeplinker activity com.bestrecipes.App https://bestrecipes.com/recipe/12
              deeplinker activity com.example.Apartments ''      # restore the last route
            """)

    @Argument(help: "The app id.") var appID: String
    @Argument(help: "The webpage URL (may be empty).") var url: String
    @Option(name: .long, help: ArgumentHelp("The activity type.", valueName: "TYPE")) var type = "browsing-web"
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        var platform = DaemonSession.platformData()
        platform[PlatformDataKey.activityType] = type
        let reply = try await DaemonSession.run(options) { [platform] in
            try await $0.invoke(appID: appID, source: "activity", input: url, platformData: platform)
        }
        InvocationOutput(appID: appID, reply: reply).print(json: options.json)
    }
}
