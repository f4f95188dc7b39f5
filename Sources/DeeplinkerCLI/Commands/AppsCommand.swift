import ArgumentParser
import DeeplinkerClient

/// `deeplinker apps`: the configured apps and their lifecycle state.
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps", abstract: "List the apps the daemon knows and their state.",
        discussion: "With --json each app also lists its claimed domains with their verdicts (see `deeplinker verify`).")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let rows = try await DaemonSession.run(options) { proxy in
            var rows: [AppStateRow] = []
            let claims = Dictionary(grouping: try await proxy.linkClaims(), by: \.appID)
            for id in try await proxy.listApps() {
                let domains = (claims[id] ?? []).map {
                    AppStateRow.Domain(domain: $0.domain, verdict: $0.verdict, detail: $0.detail, checkedAtMicroseconds: $0.checkedAtMicroseconds)
                }
                rows.append(AppStateRow(appID: id, state: try await proxy.appState(appID: id), domains: domains))
            }
            return rows
        }
        if options.json { return Output.json(rows) }
        if rows.isEmpty { return Output.line("no apps configured") }
        let width = rows.map(\.appID.count).max() ?? 0
        for row in rows {
            Output.line(row.appID + String(repeating: " ", count: width - row.appID.count) + "  " + row.state)
        }
    }
}
