import ArgumentParser
import DeeplinkerClient

/// `deeplinker show INVOCATION_ID`: one invocation with the detail of its status (`GetInvocation`).
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show one invocation and why it stands where it does.",
        discussion: """
            The detail says why an invocation failed, was rejected or expired (for a route
            the app could not take: the action and its type). An id the daemon no longer
            keeps is UnknownInvocation (exit code 4).

            EXAMPLES:
              deeplinker show 0f8c2a8e-5c1e-4a53-9d0e-3f7e2b1c9a10
              deeplinker show 0f8c2a8e-5c1e-4a53-9d0e-3f7e2b1c9a10 --json
            """)

    @Argument(help: "The invocation id (from open, history or monitor).") var invocationID: String
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let details = try await DaemonSession.run(options) { try await $0.invocation(id: invocationID) }
        if options.json { return Output.json(details) }
        Output.line("invocation: \(details.invocationID)")
        Output.line("app:        \(details.appID)")
        Output.line("source:     \(details.source)")
        if let url = details.url { Output.line("url:        \(url)") }
        Output.line("route:      \(details.target.isEmpty ? "-" : Output.route(details.target, details.parameters))")
        Output.line("status:     \(details.status)")
        Output.line("received:   \(Output.timestamp(details.receivedAtMicroseconds))")
        Output.line("attempts:   \(details.attempts)")
        Output.line("detail:     \(details.detail.isEmpty ? "-" : details.detail)")
    }
}
