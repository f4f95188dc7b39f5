import DBusKit
import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Logging
import Synchronization
import Testing

/// One test's world: a private `dbus-daemon`, a temporary config dir (route files), state dir and
/// bus service dir, a client connection that records `InvocationChanged` and `Deliver`, and the
/// daemon from `buildDaemon` running in a task (stop it by cancelling; restart on the same state).
final class DaemonFixture: Sendable {
    static let busName = "org.deeplinker.Deeplinker1"
    static let objectPath = "/org/deeplinker/Deeplinker1"
    static let interface = "org.deeplinker.Deeplinker1"
    /// The repository root (for Config/ and the shipped route files).
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let root: String
    let configDir: String
    let stateDir: String
    /// `XDG_DATA_HOME` of the daemon (where an installed desktop entry would be).
    let dataHome: String
    let serviceDir: String
    let bus: PrivateBus
    let client: DBusConnection
    let changes = Recorder<InvocationChange>()
    let delivers = Recorder<DeliverSignal>()
    /// `ActivateAction` calls received by python stand-ins (launched by the daemon or the bus).
    let pythonReceived = Recorder<PythonStandIn.Received>()
    /// Variables added to the daemon's environment (for launching tests).
    let environment: [String: String]
    /// The daemon's clock when the test controls time (nil: the system clock).
    let clock: TestClock?
    private let running = Mutex<(task: Task<Void, Never>, daemon: Daemon)?>(nil)

    /// - Parameters:
    ///   - routeFiles: app id → TOML text, written as `<app-id>.toml`.
    ///   - shipped: app ids whose route file is copied from `Config/apps`.
    ///   - startDaemon: whether to start the daemon now.
    ///   - activatable: app ids made bus-activatable as python stand-ins (service files written
    ///     before the bus starts).
    init(
        routeFiles: [String: String] = [:], shipped: [String] = [], activatable: [String] = [],
        environment: [String: String] = [:], clock: TestClock? = nil, startDaemon: Bool = true
    ) async throws {
        self.environment = environment
        self.clock = clock
        root = (NSTemporaryDirectory() as NSString).appendingPathComponent("deeplinker-itest-\(UUID().uuidString.prefix(12))")
        configDir = root + "/config"
        stateDir = root + "/state"
        dataHome = root + "/data"
        serviceDir = root + "/services"
        let fm = FileManager.default
        for dir in [configDir, stateDir, serviceDir] { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        for (app, text) in routeFiles { try text.write(toFile: "\(configDir)/\(app).toml", atomically: true, encoding: .utf8) }
        for app in shipped {
            try fm.copyItem(
                atPath: Self.repositoryRoot.appendingPathComponent("Config/apps/\(app).toml").path,
                toPath: "\(configDir)/\(app).toml")
        }
        try PythonStandIn.script.write(toFile: root + "/standin.py", atomically: true, encoding: .utf8)
        for app in activatable {
            let exec = "/usr/bin/python3 \(root)/standin.py \(app)"
            try "[D-BUS Service]\nName=\(app)\nExec=\(exec)\n".write(toFile: "\(serviceDir)/\(app).service", atomically: true, encoding: .utf8)
        }
        bus = try PrivateBus(serviceDirectories: [serviceDir])
        client = try DBusConnection(address: bus.address)
        let changes = self.changes
        try await client.subscribe(MatchRule(interface: Self.interface, member: "InvocationChanged", path: Self.objectPath)) { _, a in
            guard a.count == 4 else { return }
            changes.put(InvocationChange(
                appID: a[0].stringValue ?? "", id: a[1].stringValue ?? "", status: a[2].stringValue ?? "", detail: a[3].stringValue ?? ""))
        }
        let delivers = self.delivers
        try await client.subscribe(MatchRule(interface: Self.interface, member: "Deliver", path: Self.objectPath)) { _, a in
            guard a.count == 5 else { return }
            delivers.put(DeliverSignal(
                appID: a[0].stringValue ?? "", id: a[1].stringValue ?? "", source: a[2].stringValue ?? "",
                target: a[3].stringValue ?? "", parameters: a[4].stringDictionaryValue ?? [:]))
        }
        let received = self.pythonReceived
        try await client.subscribe(MatchRule(interface: PythonStandIn.interface, member: "Received")) { _, a in
            guard a.count == 4 else { return }
            received.put(PythonStandIn.Received(
                appID: a[0].stringValue ?? "", target: a[1].stringValue ?? "",
                parameters: a[2].stringDictionaryValue ?? [:], platformData: a[3].stringDictionaryValue ?? [:]))
        }
        if startDaemon { try await self.startDaemon() }
    }

    /// Runs `body` with a fixture that is always shut down afterwards, whether `body` returns or
    /// throws (Hummingbird's `LiveTestFramework` pattern): the scoped way to use a daemon in a test.
    static func withDaemon<T>(
        routeFiles: [String: String] = [:], shipped: [String] = [], activatable: [String] = [],
        environment: [String: String] = [:], clock: TestClock? = nil, startDaemon: Bool = true,
        _ body: (DaemonFixture) async throws -> T
    ) async throws -> T {
        let fixture = try await DaemonFixture(
            routeFiles: routeFiles, shipped: shipped, activatable: activatable, environment: environment, clock: clock,
            startDaemon: startDaemon)
        do {
            let result = try await body(fixture)
            await fixture.shutdown()
            return result
        } catch {
            await fixture.shutdown()
            throw error
        }
    }

    deinit {
        if let (task, _) = running.withLock({ $0 }) { task.cancel() }
        client.close()
        bus.stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    var configuration: DaemonConfiguration {
        var configuration = DaemonConfiguration(
            configDirectory: configDir, stateDirectory: stateDir, busAddress: bus.address,
            environment: environment.merging(["XDG_DATA_HOME": dataHome]) { $1 })
        if let clock { configuration.clock = clock }
        return configuration
    }

    static let logger: Logger = {
        var logger = Logger(label: "deeplinkerd-itest")
        logger.logLevel = ProcessInfo.processInfo.environment["DEEPLINKER_ITEST_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
        return logger
    }()

    /// Builds and runs a daemon on the fixture's bus and state; returns once it owns its name.
    @discardableResult
    func startDaemon(historyLimit: Int = 10_000) async throws -> Daemon {
        var configuration = self.configuration
        configuration.historyLimit = historyLimit
        let daemon = try await buildDaemon(configuration, logger: Self.logger)
        let task = Task<Void, Never> { _ = try? await daemon.run() }
        running.withLock { $0 = (task, daemon) }
        return daemon
    }

    /// Cancels the running daemon and waits until it has released its name and closed its store.
    func stopDaemon() async {
        guard let (task, _) = running.withLock({ current in defer { current = nil }; return current }) else { return }
        task.cancel()
        await task.value
    }

    /// Stops everything (call at the end of a test; `deinit` is the fallback after a failure).
    func shutdown() async {
        await stopDaemon()
    }

    var daemonUniqueName: String? { running.withLock { $0?.daemon.uniqueName } }

    // MARK: - Calls

    /// Calls a daemon method from the fixture's client connection.
    @discardableResult
    func call(_ member: String, _ arguments: [DBusValue] = [], from connection: DBusConnection? = nil) async throws -> [DBusValue] {
        try await (connection ?? client).call(
            destination: Self.busName, path: Self.objectPath, interface: Self.interface, member: member, arguments: arguments)
    }

    /// A call that must fail: returns the D-Bus error.
    func failingCall(_ member: String, _ arguments: [DBusValue], from connection: DBusConnection? = nil) async throws -> DBusError {
        do {
            let reply = try await call(member, arguments, from: connection)
            throw DBusError.failed("\(member) succeeded unexpectedly: \(reply)")
        } catch let error as DBusError where error.name.hasPrefix("org.deeplinker.Error.") || error.name.hasPrefix("org.freedesktop.DBus.Error.InvalidArgs") {
            return error
        }
    }

    struct RouteReply: Sendable, Hashable {
        let id: String
        let target: String
        let parameters: [String: String]

        init(_ values: [DBusValue], offset: Int = 0) {
            id = values[offset].stringValue ?? ""
            target = values[offset + 1].stringValue ?? ""
            parameters = values[offset + 2].stringDictionaryValue ?? [:]
        }
    }

    func openURL(_ app: String, _ url: String, from connection: DBusConnection? = nil) async throws -> RouteReply {
        RouteReply(try await call("OpenURL", [.string(app), .string(url)], from: connection))
    }

    func activateNotification(_ app: String, _ payload: String, action: String = "default") async throws -> RouteReply {
        RouteReply(try await call("ActivateNotification", [.string(app), .string(payload), .string(action)]))
    }

    func performShortcut(_ app: String, _ type: String) async throws -> RouteReply {
        RouteReply(try await call("PerformShortcut", [.string(app), .string(type)]))
    }

    func continueActivity(_ app: String, _ type: String, _ url: String) async throws -> RouteReply {
        RouteReply(try await call("ContinueActivity", [.string(app), .string(type), .string(url)]))
    }

    struct Pending: Sendable, Hashable {
        let id: String
        let source: String
        let target: String
        let parameters: [String: String]
        let receivedAt: Int64
    }

    func pending(_ app: String) async throws -> Pending? {
        let v = try await call("GetPending", [.string(app)])
        guard v[0].boolValue == true else { return nil }
        return Pending(
            id: v[1].stringValue ?? "", source: v[2].stringValue ?? "", target: v[3].stringValue ?? "",
            parameters: v[4].stringDictionaryValue ?? [:], receivedAt: v[5].int64Value ?? 0)
    }

    func appState(_ app: String) async throws -> String {
        try await call("GetAppState", [.string(app)]).first?.stringValue ?? ""
    }

    struct HistoryRow: Sendable, Hashable {
        let id: String
        let appID: String
        let source: String
        let target: String
        let status: String
        let receivedAt: Int64
    }

    func history(_ app: String = "", limit: UInt32 = 0) async throws -> [HistoryRow] {
        let v = try await call("GetHistory", [.string(app), .uint32(limit)])
        return (v.first?.arrayElements ?? []).map { row in
            let f = row.structureFields ?? []
            return HistoryRow(
                id: f[0].stringValue ?? "", appID: f[1].stringValue ?? "", source: f[2].stringValue ?? "",
                target: f[3].stringValue ?? "", status: f[4].stringValue ?? "", receivedAt: f[5].int64Value ?? 0)
        }
    }

    // MARK: - Events

    /// Waits for `InvocationChanged` with this id and status.
    @discardableResult
    func waitStatus(_ id: String, _ status: String, timeout: Duration = .seconds(20)) async throws -> InvocationChange {
        try await changes.first(timeout: timeout) { $0.id == id && $0.status == status }
    }

    /// The statuses signalled for `id`, in order.
    func statuses(_ id: String) -> [String] {
        changes.all.filter { $0.id == id }.map(\.status)
    }

    /// A stand-in app on this bus.
    func standIn(_ app: String, answer: StandInApp.Answer = .acknowledge, ownName: Bool = true) async throws -> StandInApp {
        try await StandInApp(app, busAddress: bus.address, answer: answer, ownName: ownName)
    }

    /// A stand-in that owns the name and that the daemon has seen become active.
    func activeStandIn(_ app: String, answer: StandInApp.Answer = .acknowledge) async throws -> StandInApp {
        let standIn = try await self.standIn(app, answer: answer)
        try standIn.becomeActive()
        let state = try await standIn.stateSeenByDaemon()
        #expect(state == "active")
        return standIn
    }

    /// A sync point for an active `activate-action` app: a fresh invocation, delivered. Anything the
    /// daemon would still deliver for earlier events reaches the stand-in before this one does.
    func barrier(_ standIn: StandInApp, url: String) async throws -> String {
        let reply = try await openURL(standIn.appID, url, from: standIn.connection)
        try await waitStatus(reply.id, "delivered")
        _ = try await standIn.received.first { $0.invocationID == reply.id }
        return reply.id
    }

    /// Writes a route file (for `Reload`).
    func writeRouteFile(_ app: String, _ text: String) throws {
        try text.write(toFile: "\(configDir)/\(app).toml", atomically: true, encoding: .utf8)
    }

    /// The argv that starts a python stand-in for `app` on this bus (for `launch = [...]`).
    func pythonStandInArgv(_ app: String) -> [String] {
        ["/usr/bin/python3", root + "/standin.py", app, bus.address]
    }

}
