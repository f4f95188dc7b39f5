import ArgumentParser
import DeeplinkerClient

/// `deeplinker history [ID] [--limit N]`: invocations, newest first.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "List invocations and their status, newest first.",
        discussion: """
            EXAMPLES:
              deeplinker history
              deeplinker history com.bestrecipes.App --limit 5 --json
            """)

    @Argument(help: "Only this app (default: all apps).") var appID: String?
    @Option(name: .long, help: "At most N rows (0 = all retained).") var limit: UInt32 = 20
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let rows = try await DaemonSession.run(options) { try await $0.history(appID: appID ?? "", limit: limit) }
        if options.json { return Output.json(rows) }
        if rows.isEmpty { return Output.line("no invocations") }
        let appWidth = rows.map(\.appID.count).max() ?? 0
        let targetWidth = rows.map { max($0.target.count, 1) }.max() ?? 0
        for row in rows {
            let target = row.target.isEmpty ? "-" : row.target
            Output.line("\(Output.timestamp(row.receivedAtMicroseconds))  \(pad(row.status, 10)) \(pad(row.source, 14)) \(pad(row.appID, appWidth))  \(pad(target, targetWidth))  \(row.invocationID)")
        }
    }

    private func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }
}
