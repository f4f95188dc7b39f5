import ArgumentParser
import DeeplinkerClient

/// `deeplinker state ID`: the app's lifecycle state as the daemon sees it.
struct StateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state", abstract: "Show an app's state (not-running, inactive, active, background).")

    @Argument(help: "The app id.") var appID: String
    @OptionGroup var options: GlobalOptions

    struct JSONOutput: Codable {
        var appID: String
        var state: String
        enum CodingKeys: String, CodingKey {
            case appID = "app_id"
            case state
        }
    }

    func run() async throws {
        let state = try await DaemonSession.run(options) { try await $0.appState(appID: appID) }
        if options.json { return Output.json(JSONOutput(appID: appID, state: state)) }
        Output.line(state)
    }
}
