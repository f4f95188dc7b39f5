import ArgumentParser
import DeeplinkerClient
import DeeplinkerCore
import FoundationEssentials

/// `deeplinker launch ID [URL | --options JSON]`: a launch with options, classified like
/// `didFinishLaunchingWithOptions`; the kind is computed here with the core's classifier.
struct LaunchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launch",
        abstract: "Launch an app, with a URL or launch options.",
        discussion: """
            With neither URL nor --options it is an icon launch. Option keys: url,
            user-activity {activity-type, webpage-url}, remote-notification {...},
            local-notification {...}, shortcut-item, source-application.

            EXAMPLES:
              deeplinker launch com.bestrecipes.App
              deeplinker launch com.bestrecipes.App bestrecipes://recipe/12
              deeplinker launch com.bestrecipes.App --options '{"shortcut-item": "com.bestrecipes.search"}'
            """)

    @Argument(help: "The app id.") var appID: String
    @Argument(help: "A URL to launch with (same as --options '{\"url\": URL}').") var url: String?
    @Option(name: .customLong("options"), help: ArgumentHelp("Launch options, a JSON object.", valueName: "JSON"))
    var launchOptions: String?
    @OptionGroup var options: GlobalOptions

    func validate() throws {
        if url != nil && launchOptions != nil { throw ValidationError("give a URL or --options, not both") }
    }

    func run() async throws {
        let input: String
        if let url {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            let data = try encoder.encode(["url": url])
            input = String(decoding: data, as: UTF8.self)
        } else {
            input = launchOptions ?? ""
        }
        // The daemon validates too; classifying first gives the kind and a local error message.
        let kind: String
        do {
            kind = try LaunchClassifier.classify(input).kind.rawValue
        } catch {
            throw CLIFailure.from(error)
        }
        let platform = DaemonSession.platformData()
        let reply = try await DaemonSession.run(options) { try await $0.invoke(appID: appID, source: "launch", input: input, platformData: platform) }
        InvocationOutput(appID: appID, kind: kind, reply: reply).print(json: options.json)
    }
}
