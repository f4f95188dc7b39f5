import ArgumentParser
import DBusKit
import DeeplinkerClient

/// `deeplinker reload`: the daemon's `Reload`; prints each broken route file's error (SPEC §7).
struct ReloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload", abstract: "Make the daemon re-read the route files; print each broken file's error.",
        discussion: "A broken file keeps that app's previous routes. Exits 8 when a file is broken, 3 when the daemon is not running. The unit's ExecReload runs this.")

    @OptionGroup var options: GlobalOptions

    struct JSONOutput: Codable {
        var reloaded: Bool
        var apps: Int
        var broken: [String]
    }

    func run() async throws {
        let (failure, broken, apps) = try await DaemonSession.run(options) { proxy -> (DBusError?, [String], Int) in
            var failure: DBusError?
            do {
                try await proxy.reload()
            } catch let error as DBusError where error.deeplinkerError == .invalidConfig {
                failure = error
            }
            // The exact list per file, from the state the reload left.
            let broken = try await proxy.properties().brokenRouteFiles
            return (failure, broken, try await proxy.listApps().count)
        }
        if options.json {
            Output.json(JSONOutput(reloaded: failure == nil, apps: apps, broken: broken))
        } else if failure == nil {
            Output.line("reloaded the route files of \(apps) apps")
        }
        guard let failure else { return }
        if !options.json {
            for error in broken { Output.error(error) }
        }
        throw CLIFailure(
            .configError, "\(broken.count) route file problem\(broken.count == 1 ? "" : "s"); those apps keep their previous routes",
            errorName: failure.name)
    }
}
