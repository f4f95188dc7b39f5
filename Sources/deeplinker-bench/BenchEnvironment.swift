import DBusKit
import DeeplinkerDaemon
import Foundation
import Logging

/// A private `dbus-daemon`, the real daemon built in-process by `buildDaemon` (SQLite file in a
/// temporary state directory, a temporary config directory holding the bench copy of the route
/// file) and a separate client connection that does the measuring.
final class BenchEnvironment: Sendable {
    /// The daemon's well-known name and object.
    static let daemonName = DeeplinkerAPI.busName
    static let daemonPath = DeeplinkerAPI.objectPath
    static let daemonInterface = DeeplinkerAPI.interface

    let bus: PrivateBus
    let root: URL
    let daemon: Daemon
    let client: DBusConnection
    private let running: Task<Void, Never>

    private init(bus: PrivateBus, root: URL, daemon: Daemon, client: DBusConnection, running: Task<Void, Never>) {
        self.bus = bus
        self.root = root
        self.daemon = daemon
        self.client = client
        self.running = running
    }

    /// Starts everything and waits until the daemon answers on the bus.
    /// `ready`: the route file's `ready` value, when not the default.
    static func start(
        routeFile: String, stateRoot: String?, identifyProcess: (@Sendable (UInt32) -> CallerLookup)? = nil, ready: String? = nil
    ) async throws -> BenchEnvironment {
        let bus = try PrivateBus()
        let base = stateRoot.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        let root = base.appendingPathComponent("deeplinker-bench-\(UUID().uuidString.prefix(8))")
        let configDir = root.appendingPathComponent("config")
        let stateDir = root.appendingPathComponent("state")
        try BenchRouteFile.install(from: routeFile, into: configDir)
        if let ready {
            let installed = configDir.appendingPathComponent(BenchRouteFile.fileName)
            let text = try String(contentsOf: installed, encoding: .utf8)
            try ("ready = \"\(ready)\"\n" + text).write(to: installed, atomically: true, encoding: .utf8)
        }
        var logger = Logger(label: "deeplinkerd")
        logger.logLevel = .warning
        var configuration = DaemonConfiguration(configDirectory: configDir.path, stateDirectory: stateDir.path, busAddress: bus.address)
        if let identifyProcess { configuration.identifyProcess = identifyProcess }
        let daemon = try await buildDaemon(configuration, logger: logger)
        let running = Task.detached { _ = try? await daemon.run() }
        let client = try DBusConnection(address: bus.address)
        try await client.ping(daemonName, path: daemonPath)
        return BenchEnvironment(bus: bus, root: root, daemon: daemon, client: client, running: running)
    }

    /// `OpenURL(app_id, url)` from the client; returns the invocation id.
    @discardableResult
    func openURL(_ url: String, appID: String = BenchRouteFile.appID) async throws -> String {
        let reply = try await client.call(
            destination: Self.daemonName, path: Self.daemonPath, interface: Self.daemonInterface, member: "OpenURL",
            arguments: [.string(appID), .string(url)])
        guard let id = reply.first?.stringValue, !id.isEmpty else { throw DBusError.failed("OpenURL returned no invocation id: \(reply)") }
        return id
    }

    /// `GetAppState(app_id)`.
    func appState(_ appID: String = BenchRouteFile.appID) async throws -> String {
        let reply = try await client.call(
            destination: Self.daemonName, path: Self.daemonPath, interface: Self.daemonInterface, member: "GetAppState",
            arguments: [.string(appID)])
        return reply.first?.stringValue ?? ""
    }

    /// The daemon's state directory (holds the SQLite file).
    var stateDirectory: String { root.appendingPathComponent("state").path }

    /// Number of SQLite write transactions so far, when the store exposes it.
    var transactionCount: Int? { daemon.storeTransactionCount }

    /// Stops the daemon, the client and the bus, and removes the temporary directories.
    func stop() async {
        running.cancel()
        await running.value
        client.close()
        bus.stop()
        try? FileManager.default.removeItem(at: root)
    }
}
