import DBusKit
import DeeplinkerTestSupport
import DeeplinkerClient
import DeeplinkerDaemon
import Foundation
import Synchronization
import Testing

/// A private bus, a temp config dir holding the shipped route files (Config/apps), a temp state
/// dir, and the real daemon from `buildDaemon` running in-process; runs the `deeplinker` binary
/// against them.
final class DaemonFixture: @unchecked Sendable {
    let bus: PrivateBus
    let root: URL
    let configDir: String
    var stateDir: String
    /// The daemon's environment (what its launcher passes on to apps and where it finds desktop entries).
    var daemonEnvironment: [String: String] = [:]
    private var daemonTask: Task<Void, any Error>?
    private(set) var daemonName: String?

    /// The repository root (this file is Tests/DeeplinkerCLITests/DaemonFixture.swift).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `deeplinker` binary next to the test bundle.
    static let binary: String = {
        var candidates: [URL] = []
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0])
        var dir = argv0.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(dir.appendingPathComponent("deeplinker"))
            dir = dir.deletingLastPathComponent()
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("deeplinker"))
        candidates.append(repository.appendingPathComponent(".build-cli/debug/deeplinker"))
        candidates.append(repository.appendingPathComponent(".build/debug/deeplinker"))
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) && !$0.hasDirectoryPath }
        return found?.path ?? candidates.last!.path
    }()

    init(startDaemon: Bool = true) async throws {
        bus = try PrivateBus()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("deeplinker-cli-\(UUID().uuidString.prefix(8))")
        let config = root.appendingPathComponent("apps")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let shipped = Self.repository.appendingPathComponent("Config/apps")
        for name in try FileManager.default.contentsOfDirectory(atPath: shipped.path) where name.hasSuffix(".toml") {
            try FileManager.default.copyItem(at: shipped.appendingPathComponent(name), to: config.appendingPathComponent(name))
        }
        configDir = config.path
        stateDir = root.appendingPathComponent("state").path
        if startDaemon { try await self.startDaemon() }
    }

    deinit {
        daemonTask?.cancel()
        bus.stop()
        try? FileManager.default.removeItem(at: root)
    }

    /// Starts the daemon (again) and waits until it owns its name.
    func startDaemon() async throws {
        let configuration = DaemonConfiguration(
            configDirectory: configDir, stateDirectory: stateDir, busAddress: bus.address, environment: daemonEnvironment)
        let daemon = try await buildDaemon(configuration)
        daemonName = daemon.uniqueName
        daemonTask = Task { try await daemon.run() }
    }

    /// Stops the daemon and waits until its name is gone from the bus.
    func stopDaemon() async throws {
        guard let task = daemonTask else { return }
        let watcher = try connect()
        defer { watcher.close() }
        let gone = Recorder<Void>()
        try await watcher.onNameOwnerChanged(name: DeeplinkerNames.busName) { _, _, new in
            if new.isEmpty { gone.put(()) }
        }
        task.cancel()
        _ = try? await task.value
        daemonTask = nil
        if try await watcher.nameOwner(DeeplinkerNames.busName) != nil { try await gone.next() }
    }

    func connect() throws -> DBusConnection {
        try DBusConnection(address: bus.address)
    }

    func proxy() throws -> DeeplinkerProxy {
        DeeplinkerProxy(connection: try connect(), timeout: .seconds(20))
    }

    /// The environment for the binary: the private bus as the session bus, no ambient tokens.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        env["XDG_ACTIVATION_TOKEN"] = nil
        env["DESKTOP_STARTUP_ID"] = nil
        env["XDG_CONFIG_HOME"] = root.appendingPathComponent("xdg-config").path
        env["XDG_DATA_HOME"] = root.appendingPathComponent("xdg-data").path
        for (key, value) in extra { env[key] = value }
        return env
    }

    /// Runs `deeplinker ARGS --bus-address BUS` to completion.
    func run(_ arguments: [String], bus useBus: Bool = true, environment extra: [String: String] = [:]) async throws -> CLIResult {
        try await Self.runProcess(
            Self.binary, arguments + (useBus ? ["--bus-address", bus.address] : []), environment: environment(extra))
    }

    /// Starts `deeplinker ARGS --bus-address BUS` in the background.
    func spawn(_ arguments: [String], environment extra: [String: String] = [:]) throws -> TestProcess {
        try TestProcess(executable: Self.binary, arguments: arguments + ["--bus-address", bus.address], environment: environment(extra))
    }

    /// Runs any program to completion, collecting its output (killed after a minute).
    static func runProcess(_ executable: String, _ arguments: [String], environment: [String: String]) async throws -> CLIResult {
        let result = try await TestProcess.run(executable, arguments, environment: environment)
        return CLIResult(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// Decodes one JSON line of output.
    static func json(_ line: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        guard let dictionary = object as? [String: Any] else { throw DBusError.failed("not a JSON object: \(line)") }
        return dictionary
    }
}
