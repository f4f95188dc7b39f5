import ArgumentParser
import DeeplinkerClient
import FoundationEssentials

/// `deeplinker monitor`: prints every `InvocationChanged` signal until interrupted.
struct MonitorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Print invocation status changes as they happen (until interrupted).",
        discussion: "A line \"monitoring ...\" on stderr tells that the subscription is in place.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let proxy = try DaemonSession.connect(options)
        let json = options.json
        let (changes, continuation) = AsyncStream.makeStream(of: InvocationChange.self)
        do {
            try await proxy.onInvocationChanged { continuation.yield($0) }
            let running = try await proxy.isDaemonRunning()
            Output.error("monitoring \(DeeplinkerNames.busName) InvocationChanged\(running ? "" : " (the daemon is not running yet)")")
        } catch {
            throw CLIFailure.from(error, busAddress: options.busAddress)
        }
        proxy.connection.onDisconnect { continuation.finish() }
        for await change in changes {
            if json {
                Output.json(change)
            } else {
                let detail = change.detail.isEmpty ? "" : "  \(change.detail)"
                Output.line("\(Output.timestamp(Int64(Date().timeIntervalSince1970 * 1_000_000)))  \(change.appID)  \(change.invocationID)  \(change.status)\(detail)")
            }
        }
        throw CLIFailure(.dbusError, "the bus connection was lost")
    }
}
