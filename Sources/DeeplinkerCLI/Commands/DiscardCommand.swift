import ArgumentParser
import DeeplinkerClient

/// `deeplinker discard ID`: drops the app's pending deeplink (it becomes `discarded`).
struct DiscardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "discard", abstract: "Discard an app's pending deeplink.")

    @Argument(help: "The app id.") var appID: String
    @OptionGroup var options: GlobalOptions

    struct JSONOutput: Codable { var discarded: Bool }

    func run() async throws {
        let discarded = try await DaemonSession.run(options) { try await $0.discardPending(appID: appID) }
        if options.json { return Output.json(JSONOutput(discarded: discarded)) }
        Output.line(discarded ? "discarded the pending deeplink of \(appID)" : "nothing pending for \(appID)")
    }
}
