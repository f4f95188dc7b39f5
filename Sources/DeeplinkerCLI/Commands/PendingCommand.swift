import ArgumentParser
import DeeplinkerClient

/// `deeplinker pending ID`: the app's pending deeplink, if any.
struct PendingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending", abstract: "Show an app's pending deeplink.",
        discussion: "Exits 0 whether or not something is pending; with --json, \"present\" tells.")

    @Argument(help: "The app id.") var appID: String
    @OptionGroup var options: GlobalOptions

    struct JSONOutput: Codable {
        var present: Bool
        var pending: PendingRoute?
    }

    func run() async throws {
        let pending = try await DaemonSession.run(options) { try await $0.pending(appID: appID) }
        if options.json { return Output.json(JSONOutput(present: pending != nil, pending: pending)) }
        guard let pending else { return Output.line("nothing pending for \(appID)") }
        Output.line("route:      \(Output.route(pending.target, pending.parameters))")
        Output.line("source:     \(pending.source)")
        Output.line("invocation: \(pending.invocationID)")
        Output.line("received:   \(Output.timestamp(pending.receivedAtMicroseconds))")
    }
}
