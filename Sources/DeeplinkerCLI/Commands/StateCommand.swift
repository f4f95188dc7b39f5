import ArgumentParser
import DeeplinkerClient

/// `deeplinker state ID`: the app's lifecycle state as the daemon sees it.
struct StateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state", abstract: "Show an app's state (not-running, inactive, active, background).")

    @Argument(help: "The app id.") var appID: String
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let state = try await DaemonSession.run(options) { try await $0.appState(appID: appID) }
        if options.json { return Output.json(AppStateRow(appID: appID, state: state)) }
        Output.line(state)
    }
}
