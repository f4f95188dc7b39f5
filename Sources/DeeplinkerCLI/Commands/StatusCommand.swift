import ArgumentParser
import DBusKit
import DeeplinkerClient
import DeeplinkerCore
import FoundationEssentials

/// `deeplinker status`: whether the daemon runs, and its version, uptime, owner, state, apps,
/// pending routes and broken route files (SPEC §7). Never starts the daemon.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show whether the daemon is running, and its state.",
        discussion: "Does not start the daemon. Exits 0 when it runs, 3 when it does not (or there is no bus).")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let status = try await DaemonSession.run(options) { proxy in try await Self.collect(proxy) }
        if options.json {
            Output.json(status)
        } else {
            Self.show(status)
        }
        guard status.running else {
            let bus = options.busAddress.map { "the bus at \($0)" } ?? "the session bus"
            throw CLIFailure(
                .daemonNotRunning,
                "the Deeplinker daemon is not running (nobody owns \(DeeplinkerNames.busName) on \(bus))"
                    + (status.activatable ? "; the bus starts it on the first call" : "; start it with `systemctl --user start deeplinkerd` or `deeplinkerd`"))
        }
    }

    /// Asks the bus who owns the name, then the daemon for its properties, apps and pending routes.
    static func collect(_ proxy: DeeplinkerProxy) async throws -> DaemonStatus {
        let activatable = (try? await proxy.connection.listActivatableNames().contains(DeeplinkerNames.busName)) ?? false
        guard let owner = try await proxy.connection.nameOwner(DeeplinkerNames.busName) else {
            return DaemonStatus(running: false, activatable: activatable)
        }
        // Addressed to the owner, not the name: a daemon that just stopped is not restarted.
        let direct = DeeplinkerProxy(connection: proxy.connection, destination: owner, timeout: proxy.timeout)
        let properties = try await direct.properties()
        let apps = try await direct.listApps()
        var pending: [String: DaemonStatus.Pending] = [:]
        for app in apps {
            guard let route = try await direct.pending(appID: app) else { continue }
            pending[app] = DaemonStatus.Pending(
                invocationID: route.invocationID, source: route.source, target: route.target,
                receivedAtMicroseconds: route.receivedAtMicroseconds,
                detail: (try? await direct.invocation(id: route.invocationID))?.detail ?? "")
        }
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        return DaemonStatus(
            running: true, activatable: activatable, version: properties.version,
            startedAtMicroseconds: properties.startedAtMicroseconds,
            uptimeSeconds: max(0, (now - properties.startedAtMicroseconds) / 1_000_000),
            owner: owner, pid: try? await direct.processID(of: owner),
            stateDirectory: properties.stateDirectory, databaseBytes: properties.databaseSize, apps: apps,
            pending: pending, brokenRouteFiles: properties.brokenRouteFiles,
            linkClaims: (try? await direct.linkClaims())?.map { DomainChecks.Row($0) })
    }

    /// The human-readable form.
    static func show(_ status: DaemonStatus) {
        guard status.running else {
            Output.line("deeplinkerd is not running" + (status.activatable ? " (bus-activatable: the first call starts it)" : ""))
            return
        }
        Output.line("deeplinkerd is running")
        Output.line("  version:            \(status.version ?? "")")
        Output.line("  uptime:             \(duration(status.uptimeSeconds ?? 0)) (since \(Output.timestamp(status.startedAtMicroseconds ?? 0)))")
        Output.line("  bus name owner:     \(status.owner ?? "")\(status.pid.map { " (pid \($0))" } ?? "")")
        Output.line("  state directory:    \(status.stateDirectory ?? "")")
        Output.line("  database size:      \(bytes(status.databaseBytes ?? 0))")
        let apps = status.apps ?? []
        Output.line("  apps loaded:        \(apps.count)\(apps.isEmpty ? "" : " (" + apps.joined(separator: ", ") + ")")")
        let pending = status.pending ?? [:]
        if pending.isEmpty {
            Output.line("  pending routes:     none")
        } else {
            Output.line("  pending routes:     \(pending.count)")
            for app in pending.keys.sorted() {
                let route = pending[app]!
                Output.line("    \(app): \(route.target) (\(route.source), \(route.invocationID), received \(Output.timestamp(route.receivedAtMicroseconds)))")
                if !route.detail.isEmpty { Output.line("      \(route.detail)") }
            }
        }
        let broken = status.brokenRouteFiles ?? []
        Output.line("  broken route files: \(broken.isEmpty ? "none" : String(broken.count))")
        for error in broken { Output.line("    \(error)") }
        if let claims = status.linkClaims {
            let verified = claims.filter { $0.verdict == DomainVerdict.verified.rawValue }.count
            let approved = claims.filter { $0.verdict == DomainVerdict.approved.rawValue }.count
            let counts = "\(verified) verified" + (approved > 0 ? ", \(approved) approved by the user" : "")
            Output.line("  claimed domains:    \(claims.isEmpty ? "none" : "\(claims.count) (\(counts))")")
            for line in DomainChecks.lines(claims) { Output.line("    " + line) }
        }
    }

    static func duration(_ seconds: Int64) -> String {
        let (days, hours, minutes) = (seconds / 86_400, seconds / 3_600 % 24, seconds / 60 % 60)
        if days > 0 { return "\(days) d \(hours) h \(minutes) min" }
        if hours > 0 { return "\(hours) h \(minutes) min" }
        if minutes > 0 { return "\(minutes) min \(seconds % 60) s" }
        return "\(seconds) s"
    }

    static func bytes(_ count: UInt64) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return Output.format("%.1f", Double(count) / 1024) + " KiB" }
        return Output.format("%.1f", Double(count) / 1_048_576) + " MiB"
    }
}
