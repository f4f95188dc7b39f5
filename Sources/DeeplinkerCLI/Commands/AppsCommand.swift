import ArgumentParser
import DeeplinkerClient

/// `deeplinker apps`: the configured apps and their lifecycle state.
struct AppsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "apps", abstract: "List the apps the daemon knows and their state.")

    @OptionGroup var options: GlobalOptions

    struct Row: Codable {
        var appID: String
        var state: String
        enum CodingKeys: String, CodingKey {
            case appID = "app_id"
            case state
        }
    }

    func run() async throws {
        let rows = try await DaemonSession.run(options) { proxy in
            var rows: [Row] = []
            for id in try await proxy.listApps() {
                rows.append(Row(appID: id, state: try await proxy.appState(appID: id)))
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
