import DBusKit
import DeeplinkerClient
import DeeplinkerDaemon
import Foundation
import Logging
import TaskThreads

/// One test's world, the one daemon fixture of every test target: a private `dbus-daemon`, a
/// temporary root holding the route files (`configDir`), the state (`stateDir`), the daemon's
/// `XDG_DATA_HOME` (`dataHome`) and the bus's service directory; a client connection that records
/// `InvocationChanged`, `Deliver` and the python stand-ins' reports; the daemon from `buildDaemon`
/// running in a task, and any real `deeplinkerd` or `deeplinker` processes started from here.
///
/// Only ``withDaemon(routeFiles:shipped:activatable:environment:clock:startDaemon:_:)`` makes one:
/// whether the body returns or throws, the daemon is stopped, the processes are killed, the bus
/// is stopped and the temporary root is removed.
public final class DaemonFixture: Sendable {
    public static let busName = DeeplinkerAPI.busName
    public static let objectPath = DeeplinkerAPI.objectPath
    public static let interface = DeeplinkerAPI.interface

    /// The temporary root; everything below it is removed at the end.
    public let root: String
    public let configDir: String
    /// `XDG_DATA_HOME` of the daemon (where an installed desktop entry would be).
    public let dataHome: String
    public let serviceDir: String
    public let bus: PrivateBus
    public let client: DBusConnection
    /// Every `InvocationChanged` signal.
    public let changes = Recorder<InvocationChange>()
    /// Every `Deliver` signal.
    public let delivers = Recorder<DeliverSignal>()
    /// `ActivateAction` calls received by python stand-ins (launched by the daemon or the bus).
    public let pythonReceived = Recorder<PythonStandIn.Received>()
    /// Every new owner of the daemon's bus name ("" when it lost its owner), in order.
    public let nameOwners = Recorder<String>()
    /// The daemon's clock when the test controls time (nil: the system clock).
    public let clock: TestClock?

    private struct Settings {
        var environment: [String: String]
        var stateDirectory: String
        var configDirectory: String
    }

    private let settings: LockedValue<Settings>
    private let running = LockedValue<(task: Task<Void, Never>, daemon: Daemon)?>(nil)
    private let processes = LockedValue<[TestProcess]>([])
    private let isShutDown = LockedValue(false)

    /// Runs `body` with a fixture that is always shut down afterwards, whether `body` returns or
    /// throws: the one way a test gets a daemon.
    /// - Parameters:
    ///   - routeFiles: app id → TOML text, written as `<app-id>.toml` in `configDir`.
    ///   - shipped: app ids whose route file is copied from `Config/apps`
    ///     (`TestRouteFiles.shippedAppIDs`: all of them).
    ///   - activatable: app ids made bus-activatable as python stand-ins (service files written
    ///     before the bus starts).
    ///   - environment: the daemon's environment (`XDG_DATA_HOME` is `dataHome` unless given).
    ///   - clock: the daemon's clock (nil: the system clock).
    ///   - startDaemon: whether to start the daemon before `body` (else `startDaemon()` or
    ///     `spawnDaemonProcess()` when the test is ready).
    public static func withDaemon<T>(
        routeFiles: [String: String] = [:], shipped: [String] = [], activatable: [String] = [],
        environment: [String: String] = [:], clock: TestClock? = nil, startDaemon: Bool = true,
        _ body: (DaemonFixture) async throws -> T
    ) async throws -> T {
        let fixture = try await DaemonFixture(
            routeFiles: routeFiles, shipped: shipped, activatable: activatable, environment: environment, clock: clock)
        do {
            if startDaemon { try await fixture.startDaemon() }
            let result = try await body(fixture)
            await fixture.shutdown()
            return result
        } catch {
            await fixture.shutdown()
            throw error
        }
    }

    private init(
        routeFiles: [String: String], shipped: [String], activatable: [String], environment: [String: String], clock: TestClock?
    ) async throws {
        self.clock = clock
        root = (NSTemporaryDirectory() as NSString).appendingPathComponent("deeplinker-test-\(UUID().uuidString.prefix(12))")
        configDir = root + "/config"
        dataHome = root + "/data"
        serviceDir = root + "/services"
        settings = LockedValue(Settings(environment: environment, stateDirectory: root + "/state", configDirectory: configDir))
        let fm = FileManager.default
        for dir in [configDir, root + "/state", serviceDir] { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        for (app, text) in routeFiles { try text.write(toFile: "\(configDir)/\(app).toml", atomically: true, encoding: .utf8) }
        for app in shipped {
            try fm.copyItem(atPath: "\(TestRouteFiles.shippedDirectory)/\(app).toml", toPath: "\(configDir)/\(app).toml")
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
                appID: a[0].stringValue ?? "", invocationID: a[1].stringValue ?? "", status: a[2].stringValue ?? "",
                detail: a[3].stringValue ?? ""))
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
        let owners = nameOwners
        try await client.onNameOwnerChanged(name: Self.busName) { _, _, owner in owners.put(owner) }
    }

    /// The fallback should a fixture outlive `withDaemon` (it cannot today).
    deinit {
        guard !isShutDown.withLock({ $0 }) else { return }
        if let (task, _) = running.withLock({ $0 }) { task.cancel() }
        for process in processes.withLock({ $0 }) { process.stop() }
        client.close()
        bus.stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Stops everything: the daemon, the processes started here, the client, the bus; removes the root.
    private func shutdown() async {
        guard !isShutDown.withLock({ done in defer { done = true }; return done }) else { return }
        await stopDaemonTask()
        for process in processes.withLock({ $0 }) { process.stop() }
        client.close()
        bus.stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    // MARK: - The daemon

    /// Where the daemon keeps its database (`root/state` unless a start moved it).
    public var stateDir: String { settings.withLock { $0.stateDirectory } }

    /// What the next `startDaemon()` builds from.
    public var configuration: DaemonConfiguration {
        let settings = self.settings.withLock { $0 }
        var configuration = DaemonConfiguration(
            configDirectory: settings.configDirectory, stateDirectory: settings.stateDirectory, busAddress: bus.address,
            environment: ["XDG_DATA_HOME": dataHome].merging(settings.environment) { $1 })
        if let clock { configuration.clock = clock }
        return configuration
    }

    /// The daemon's log: nothing unless `DEEPLINKER_ITEST_LOG` names a level.
    public static let logger: Logger = {
        var logger = Logger(label: "deeplinkerd-itest")
        logger.logLevel = ProcessInfo.processInfo.environment["DEEPLINKER_ITEST_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
        return logger
    }()

    /// Builds and runs a daemon (in this process) on the fixture's bus and state; returns once it
    /// owns its name.
    /// - Parameters:
    ///   - environment: replaces the daemon's environment for this and later starts.
    ///   - stateDirectory: moves the state for this and later starts (a daemon that knows nothing).
    ///   - configDirectory: moves the route files for this and later starts (it need not exist).
    ///   - logger: the daemon's logger (default ``logger``).
    ///   - store: an open store to use instead of the state directory's database.
    ///   - launchGrace: how long a launched app has to be running (SPEC §6: 10 s).
    @discardableResult
    public func startDaemon(
        historyLimit: Int = 10_000, environment: [String: String]? = nil, stateDirectory: String? = nil,
        configDirectory: String? = nil, logger: Logger? = nil,
        identifyProcess: (@Sendable (UInt32) -> CallerLookup)? = nil, store: (any InvocationStore)? = nil,
        launchGrace: Duration? = nil
    ) async throws -> Daemon {
        settings.withLock { settings in
            if let environment { settings.environment = environment }
            if let stateDirectory { settings.stateDirectory = stateDirectory }
            if let configDirectory { settings.configDirectory = configDirectory }
        }
        var configuration = self.configuration
        configuration.historyLimit = historyLimit
        if let identifyProcess { configuration.identifyProcess = identifyProcess }
        if let store { configuration.store = store }
        if let launchGrace { configuration.launchGrace = launchGrace }
        let daemon = try await buildDaemon(configuration, logger: logger ?? Self.logger)
        let task = Task<Void, Never> { _ = try? await daemon.run() }
        running.withLock { $0 = (task, daemon) }
        return daemon
    }

    /// Stops the daemon started by `startDaemon()` and waits until it has closed its store and its
    /// name is gone from the bus.
    public func stopDaemon() async throws {
        guard await stopDaemonTask() else { return }
        try await client.waitUntilUnowned(Self.busName)
    }

    /// Cancels the daemon's task and waits for it; false when none was running.
    @discardableResult
    private func stopDaemonTask() async -> Bool {
        guard let (task, _) = running.withLock({ current in defer { current = nil }; return current }) else { return false }
        task.cancel()
        await task.value
        return true
    }

    /// The unique name of the daemon started by `startDaemon()`.
    public var daemonUniqueName: String? { running.withLock { $0?.daemon.uniqueName } }

    /// The environment for a `deeplinkerd` (or other) process: this one's without the session bus,
    /// the runtime directory and the service manager's variables, plus `extra`.
    public static func processEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "NOTIFY_SOCKET", "WATCHDOG_USEC", "JOURNAL_STREAM"] {
            environment[name] = nil
        }
        return environment.merging(extra) { $1 }
    }

    /// Starts the real `deeplinkerd` on the fixture's bus, route files and state (stderr kept, see
    /// `TestProcess`) and, unless `waitForName` is false, returns once it owns its name. It is
    /// killed at the end of the test if still running.
    @discardableResult
    public func spawnDaemonProcess(
        arguments: [String] = [], environment extra: [String: String] = [:], stateDirectory: String? = nil,
        waitForName: Bool = true
    ) async throws -> TestProcess {
        let seen = nameOwners.count { !$0.isEmpty }
        let child = try TestProcess(
            product: "deeplinkerd",
            arguments: ["--bus-address", bus.address, "--config-dir", configDir, "--state-dir", stateDirectory ?? stateDir] + arguments,
            environment: Self.processEnvironment(["XDG_DATA_HOME": dataHome].merging(extra) { $1 }))
        processes.withLock { $0.append(child) }
        if waitForName {
            do {
                try await nameOwners.wait(count: seen + 1) { !$0.isEmpty }
            } catch {
                throw DBusError.failed("deeplinkerd did not take its name: \(error); stderr: \(child.stderr)")
            }
        }
        return child
    }

    // MARK: - The `deeplinker` binary

    /// The environment of a client program (the `deeplinker` binary, a python app): the private bus
    /// as the session bus, no ambient activation tokens, `XDG_CONFIG_HOME` and `XDG_DATA_HOME`
    /// under the root (`xdg-config`, `xdg-data`), plus `extra`.
    public func clientEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        environment["XDG_ACTIVATION_TOKEN"] = nil
        environment["DESKTOP_STARTUP_ID"] = nil
        environment["XDG_CONFIG_HOME"] = root + "/xdg-config"
        environment["XDG_DATA_HOME"] = root + "/xdg-data"
        return environment.merging(extra) { $1 }
    }

    /// Runs `deeplinker ARGS --bus-address BUS` (without the flag when `bus` is false) to completion.
    public func run(_ arguments: [String], bus useBus: Bool = true, environment extra: [String: String] = [:]) async throws -> TestProcess.Result {
        try await TestProcess.run(
            TestProcess.product("deeplinker"), arguments + (useBus ? ["--bus-address", bus.address] : []),
            environment: clientEnvironment(extra))
    }

    /// Starts `deeplinker ARGS --bus-address BUS` in the background (killed at the end of the test).
    public func spawn(_ arguments: [String], environment extra: [String: String] = [:]) throws -> TestProcess {
        let child = try TestProcess(
            executable: TestProcess.product("deeplinker"), arguments: arguments + ["--bus-address", bus.address],
            environment: clientEnvironment(extra))
        processes.withLock { $0.append(child) }
        return child
    }

    /// Decodes one JSON object (a line of `--json` output).
    public static func json(_ text: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        guard let dictionary = object as? [String: Any] else { throw DBusError.failed("not a JSON object: \(text)") }
        return dictionary
    }

    // MARK: - Connections and calls

    /// A new connection to the fixture's bus (the test closes it).
    public func connect() throws -> DBusConnection {
        try DBusConnection(address: bus.address)
    }

    /// A `DeeplinkerProxy` on a new connection (the test closes `proxy.connection`).
    public func proxy() throws -> DeeplinkerProxy {
        DeeplinkerProxy(connection: try connect(), timeout: .seconds(20))
    }

    /// Calls a daemon method from the fixture's client connection.
    @discardableResult
    public func call(_ member: String, _ arguments: [DBusValue] = [], from connection: DBusConnection? = nil) async throws -> [DBusValue] {
        try await (connection ?? client).call(
            destination: Self.busName, path: Self.objectPath, interface: Self.interface, member: member, arguments: arguments)
    }

    /// A call that must fail: returns the D-Bus error.
    public func failingCall(_ member: String, _ arguments: [DBusValue], from connection: DBusConnection? = nil) async throws -> DBusError {
        do {
            let reply = try await call(member, arguments, from: connection)
            throw DBusError.failed("\(member) succeeded unexpectedly: \(reply)")
        } catch let error as DBusError where error.name.hasPrefix("org.deeplinker.Error.") || error.name.hasPrefix("org.freedesktop.DBus.Error.InvalidArgs") {
            return error
        }
    }

    public struct RouteReply: Sendable, Hashable {
        public let id: String
        public let target: String
        public let parameters: [String: String]

        public init(_ values: [DBusValue], offset: Int = 0) {
            id = values[offset].stringValue ?? ""
            target = values[offset + 1].stringValue ?? ""
            parameters = values[offset + 2].stringDictionaryValue ?? [:]
        }
    }

    public func openURL(_ app: String, _ url: String, from connection: DBusConnection? = nil) async throws -> RouteReply {
        RouteReply(try await call("OpenURL", [.string(app), .string(url)], from: connection))
    }

    public func activateNotification(_ app: String, _ payload: String, action: String = "default") async throws -> RouteReply {
        RouteReply(try await call("ActivateNotification", [.string(app), .string(payload), .string(action)]))
    }

    public func performShortcut(_ app: String, _ type: String) async throws -> RouteReply {
        RouteReply(try await call("PerformShortcut", [.string(app), .string(type)]))
    }

    public func continueActivity(_ app: String, _ type: String, _ url: String) async throws -> RouteReply {
        RouteReply(try await call("ContinueActivity", [.string(app), .string(type), .string(url)]))
    }

    public struct Pending: Sendable, Hashable {
        public let id: String
        public let source: String
        public let target: String
        public let parameters: [String: String]
        public let receivedAt: Int64
    }

    public func pending(_ app: String) async throws -> Pending? {
        let v = try await call("GetPending", [.string(app)])
        guard v[0].boolValue == true else { return nil }
        return Pending(
            id: v[1].stringValue ?? "", source: v[2].stringValue ?? "", target: v[3].stringValue ?? "",
            parameters: v[4].stringDictionaryValue ?? [:], receivedAt: v[5].int64Value ?? 0)
    }

    public func appState(_ app: String) async throws -> String {
        try await call("GetAppState", [.string(app)]).first?.stringValue ?? ""
    }

    public struct HistoryRow: Sendable, Hashable {
        public let id: String
        public let appID: String
        public let source: String
        public let target: String
        public let status: String
        public let receivedAt: Int64
    }

    public func history(_ app: String = "", limit: UInt32 = 0) async throws -> [HistoryRow] {
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
    public func waitStatus(_ id: String, _ status: String, timeout: Duration = .seconds(20)) async throws -> InvocationChange {
        try await changes.first(timeout: timeout) { $0.invocationID == id && $0.status == status }
    }

    /// The statuses signalled for `id`, in order.
    public func statuses(_ id: String) -> [String] {
        changes.all.filter { $0.invocationID == id }.map(\.status)
    }

    // MARK: - Stand-ins and route files

    /// A stand-in app on this bus.
    public func standIn(_ app: String, answer: StandInApp.Answer = .acknowledge, ownName: Bool = true) async throws -> StandInApp {
        try await StandInApp(app, busAddress: bus.address, answer: answer, ownName: ownName)
    }

    /// A stand-in that owns the name and that the daemon has seen become active.
    public func activeStandIn(_ app: String, answer: StandInApp.Answer = .acknowledge) async throws -> StandInApp {
        let standIn = try await self.standIn(app, answer: answer)
        try standIn.becomeActive()
        let state = try await standIn.stateSeenByDaemon()
        guard state == "active" else { throw DBusError.failed("the daemon sees \(app) \(state) after BecameActive") }
        return standIn
    }

    /// A sync point for an active `activate-action` app: a fresh invocation, delivered. Anything the
    /// daemon would still deliver for earlier events reaches the stand-in before this one does.
    public func barrier(_ standIn: StandInApp, url: String) async throws -> String {
        let reply = try await openURL(standIn.appID, url, from: standIn.connection)
        try await waitStatus(reply.id, "delivered")
        _ = try await standIn.received.first { $0.invocationID == reply.id }
        return reply.id
    }

    /// Writes a route file (for `Reload`, or before `startDaemon()`).
    public func writeRouteFile(_ app: String, _ text: String) throws {
        try text.write(toFile: "\(configDir)/\(app).toml", atomically: true, encoding: .utf8)
    }

    /// The argv that starts a python stand-in for `app` on this bus (for `launch = [...]`).
    public func pythonStandInArgv(_ app: String) -> [String] {
        ["/usr/bin/python3", root + "/standin.py", app, bus.address]
    }
}
