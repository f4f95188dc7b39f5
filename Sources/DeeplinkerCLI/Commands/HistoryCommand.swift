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
            // Each entry's detail comes from GetInvocation (GetHistory's rows do not carry it),
            // up to 64 calls in flight on the one connection; one trimmed meanwhile has none.
            try await withThrowingTaskGroup(of: (Int, String).self) { group in
                var next = rows.startIndex
                func startNext() {
                    guard next < rows.endIndex else { return }
                    let (index, id) = (next, rows[next].invocationID)
                    next += 1
                    group.addTask { (index, try await Self.detail(of: id, proxy)) }
                }
                for _ in 0..<64 { startNext() }
                while let (index, detail) = try await group.next() {
                    rows[index].detail = detail
                    startNext()
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

    /// The invocation's detail, `""` when the daemon no longer keeps it.
    private static func detail(of id: String, _ proxy: DeeplinkerProxy) async throws -> String {
        do {
            return try await proxy.invocation(id: id).detail
        } catch where error.deeplinkerErrorName == "UnknownInvocation" {
            return ""
        }
    }

    private func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }
}
