import ArgumentParser
import DeeplinkerClient

/// `deeplinker open [--app ID] [URL]`: a custom-scheme or universal link, via `Invoke` with
/// source `url`. With `--app` and no URL it is a plain icon launch (what the desktop entry runs
/// when started without a URL).
struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open a deep link (custom scheme or https universal link).",
        discussion: """
            Without --app the app is found by the URL's scheme or https domain.
            With --app and no URL, the app is launched as from its icon.

            EXAMPLES:
              deeplinker open bestrecipes://recipe/12
              deeplinker open --app com.bestrecipes.App 'https://bestrecipes.com/recipe?id=12'
            """)

    @Option(name: .long, help: ArgumentHelp("The app to open the URL in (default: the app claiming the URL).", valueName: "ID"))
    var app: String?

    @Argument(help: "The URL.")
    var url: String?

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        if url == nil && app == nil { throw ValidationError("give a URL, or --app ID to launch an app without one") }
    }

    func run() async throws {
        let appID = app ?? ""
        let platform = DaemonSession.platformData()
        if let url, !url.isEmpty {
            let reply = try await DaemonSession.run(options) { try await $0.invoke(appID: appID, source: "url", input: url, platformData: platform) }
            InvocationOutput(appID: appID, reply: reply).print(json: options.json)
        } else {
            let reply = try await DaemonSession.run(options) { try await $0.invoke(appID: appID, source: "launch", input: "", platformData: platform) }
            InvocationOutput(appID: appID, kind: "app-icon", reply: reply).print(json: options.json)
        }
    }
}
