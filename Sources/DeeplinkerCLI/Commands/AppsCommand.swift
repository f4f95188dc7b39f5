import ArgumentParser
import DeeplinkerClient

/// `deeplinker apps`: the configured apps and their lifecycle state.
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "apps", abstract: "List the apps the daemon knows and their state.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let rows = try await DaemonSession.run(options) { proxy in
            var rows: [AppStateRow] = []
            for id in try await proxy.listApps() {
                rows.append(AppStateRow(appID: id, state: try await proxy.appState(appID: id)))
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
