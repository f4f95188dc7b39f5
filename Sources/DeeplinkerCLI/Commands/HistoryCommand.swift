import ArgumentParser
import DBusKit
import DeeplinkerClient

/// `deeplinker history [ID] [--limit N]`: invocations, newest first.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "List invocations and their status, newest first.",
        discussion: """
            EXAMPLES:
              deeplinker history
              deeplinker history com.bestrecipes.App --limit 5 --json   (each entry with its detail)
            """)

    @Argument(help: "Only this app (default: all apps).") var appID: String?
    @Option(name: .long, help: "At most N rows (0 = all retained).") var limit: UInt32 = 20
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let json = options.json
        let rows = try await DaemonSession.run(options) { (proxy: DeeplinkerProxy) async throws -> [HistoryEntry] in
            var rows = try await proxy.history(appID: appID ?? "", limit: limit)
            guard json else { return rows }
            // Each entry's detail comes from GetInvocation (GetHistory's rows do not carry it);
            // one trimmed meanwhile has none.
            for index in rows.indices {
                do {
                    rows[index].detail = try await proxy.invocation(id: rows[index].invocationID).detail
                } catch let error as DBusError where error.deeplinkerErrorName == "UnknownInvocation" {
                    rows[index].detail = ""
                }
            }
            return rows
        }
        if json { return Output.json(rows) }
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
