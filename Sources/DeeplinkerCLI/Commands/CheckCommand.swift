import ArgumentParser
import DeeplinkerCore
import FoundationEssentials

/// `deeplinker check [FILE...]`: validates route files offline, printing `file:line:col: message`
/// for each problem; exits 8 when any file is broken.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate route files (offline).",
        discussion: """
            With no FILE, checks every route file on the search path (--config-dir DIR, else
            $XDG_CONFIG_HOME/deeplinker/apps, then deeplinker/apps under $XDG_DATA_DIRS).
            Problems are printed as file:line:column: message; the exit status is 8 if any.

            EXAMPLES:
              deeplinker check com.bestrecipes.App.toml
              deeplinker check --config-dir Config/apps
            """)

    @Argument(help: "Route files (<app-id>.toml).") var files: [String] = []
    @OptionGroup var options: GlobalOptions

    struct FileResult: Codable {
        var file: String
        var appID: String
        var ok: Bool
        var line: Int?
        var column: Int?
        var message: String?
        var shadowedBy: String?

        enum CodingKeys: String, CodingKey {
            case file, ok, line, column, message
            case appID = "app_id"
            case shadowedBy = "shadowed_by"
        }
    }

    func run() async throws {
        var paths = files
        var winners: [String: String] = [:]
        if paths.isEmpty {
            let directories = RouteFiles.searchPath(configDir: options.configDir)
            let found = RouteFiles.discover(in: directories)
            paths = found.all
            winners = found.winners
            if paths.isEmpty && !options.json {
                Output.error("no route files found in \(directories.joined(separator: ", "))")
            }
        }
        var results: [FileResult] = []
        var configs: [AppConfig] = []
        for path in paths {
            let appID = RouteFiles.appID(ofFile: path)
            var result = FileResult(file: path, appID: appID, ok: true)
            if let winner = winners[appID], winner != path { result.shadowedBy = winner }
            switch RouteFiles.load(path) {
            case .success(let config):
                if result.shadowedBy == nil { configs.append(config) }
                if !options.json {
                    let shadow = result.shadowedBy.map { " (not used: \($0) comes first)" } ?? ""
                    Output.line("\(path): ok — \(config.targets.count) targets, \(config.routes.count) routes, \(config.shortcuts.count) shortcuts\(shadow)")
                }
            case .failure(let error):
                result.ok = false
                result.line = error.line
                result.column = error.column
                result.message = error.message
                if !options.json { Output.line(error.description) }
            }
            results.append(result)
        }
        if !options.json {
            for warning in conflicts(configs) { Output.line("warning: \(warning)") }
        } else {
            Output.json(results)
        }
        if results.contains(where: { !$0.ok }) { throw ExitCode(ExitStatus.configError.rawValue) }
    }

    /// Schemes claimed by several apps: `open` without `--app` is then `AmbiguousApp`.
    private func conflicts(_ configs: [AppConfig]) -> [String] {
        var claims: [String: [String]] = [:]
        for config in configs {
            for scheme in config.schemes { claims["scheme '\(scheme)'", default: []].append(config.appID) }
            for domain in config.domains { claims["domain '\(domain)'", default: []].append(config.appID) }
        }
        return claims.keys.sorted().compactMap { key in
            let ids = claims[key]!
            return ids.count > 1 ? "\(key) is claimed by \(ids.joined(separator: " and ")): URLs without an app id are ambiguous" : nil
        }
    }
}
