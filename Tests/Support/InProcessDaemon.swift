import DBusKit
import DeeplinkerCore
import DeeplinkerDaemon
import DeeplinkerProtocol
import Foundation
import Logging
import TaskThreads

/// The daemon's method table in process, with no bus at all: route files in a temporary
/// directory, an in-memory store, the real core and the one dispatcher, on a detached connection
/// whose sends (signals, deliveries) are recorded. Its method calls are answered as on a bus whose
/// apps are written for Deeplinker (``answer(_:)``).
///
/// Only ``withDaemon(routeFiles:shipped:clock:_:)`` makes one; the daemon is stopped and the
/// directory removed whether the body returns or throws.
public final class InProcessDaemon: Sendable {
    public let daemon: Daemon
    public let configDir: String
    /// Every message the daemon sent (signals, method calls to apps), in order.
    public let sent = Recorder<DBusMessage>()
    /// What left the daemon, in order: `sent <member>` for each message, `reply <member>` for each
    /// answer to ``send(_:_:as:sender:)``, as it happened on the bus thread.
    public let timeline = Recorder<String>()
    /// The store: with ``MemoryInvocationStore/Mode/stepped`` the test writes and syncs.
    public let store: MemoryInvocationStore

    private let root: String
    private let task: LockedValue<Task<Void, Never>?> = LockedValue(nil)

    public static func withDaemon<T>(
        routeFiles: [String: String] = [:], shipped: [String] = [], clock: TestClock? = nil,
        store: MemoryInvocationStore = MemoryInvocationStore(), _ body: (InProcessDaemon) async throws -> T
    ) async throws -> T {
        let fixture = try await InProcessDaemon(routeFiles: routeFiles, shipped: shipped, clock: clock, store: store)
        do {
            let result = try await body(fixture)
            await fixture.stop()
            return result
        } catch {
            await fixture.stop()
            throw error
        }
    }

    private init(routeFiles: [String: String], shipped: [String], clock: TestClock?, store: MemoryInvocationStore) async throws {
        self.store = store
        root = (NSTemporaryDirectory() as NSString).appendingPathComponent("deeplinker-router-\(UUID().uuidString.prefix(12))")
        configDir = root + "/config"
        try FileManager.default.createDirectory(atPath: configDir, withIntermediateDirectories: true)
        for (app, text) in routeFiles { try text.write(toFile: "\(configDir)/\(app).toml", atomically: true, encoding: .utf8) }
        for app in shipped {
            try FileManager.default.copyItem(atPath: "\(TestRouteFiles.shippedDirectory)/\(app).toml", toPath: "\(configDir)/\(app).toml")
        }
        var configuration = DaemonConfiguration(
            configDirectory: configDir, stateDirectory: root + "/state", environment: ["XDG_DATA_HOME": root + "/data"],
            clock: clock ?? SystemEngineClock())
        configuration.store = store
        let (sent, timeline) = (self.sent, self.timeline)
        daemon = try await Daemon.inProcess(
            configuration, logger: Logger(label: "in-process") { _ in SwiftLogNoOpLogHandler() },
            onSend: {
                timeline.put("sent \($0.member ?? "?")")
                sent.put($0)
            }, answer: Self.answer)
        let daemon = self.daemon
        task.withLock { $0 = Task { try? await daemon.run() } }
    }

    /// How the apps answer the daemon's calls: `org.gtk.Actions.DescribeAll` with `UnknownMethod`,
    /// as an app written for Deeplinker does (its routes then go as `a{ss}`, at once); any other
    /// call reaches no one (`ServiceUnknown`), so a delivery sent is recorded and left unanswered.
    public static func answer(_ call: DBusMessage) -> Result<[DBusValue], DBusError> {
        if call.interface == DeeplinkerBus.actionsInterface, call.member == "DescribeAll" {
            return .failure(DBusError(name: DBusError.unknownMethodName, message: "no method 'DescribeAll'"))
        }
        return .failure(DBusError(name: DBusError.serviceUnknownName, message: "no bus: \(call.destination ?? "?") is not reached"))
    }

    /// Calls `member` through the dispatcher as `caller` on connection `sender`.
    public func call(
        _ member: String, _ arguments: [DBusValue], as caller: Caller = .host, sender: String = ":1.1"
    ) async -> Result<[DBusValue], DBusError> {
        await daemon.call(member, arguments, as: caller, sender: sender)
    }

    /// Calls `member` without waiting: its answer is put in ``timeline`` (`reply <member>`) the moment
    /// it is sent, and in the returned recorder.
    public func send(
        _ member: String, _ arguments: [DBusValue], as caller: Caller = .host, sender: String = ":1.1"
    ) -> Recorder<Result<[DBusValue], DBusError>> {
        let answer = Recorder<Result<[DBusValue], DBusError>>()
        let timeline = self.timeline
        daemon.call(member, arguments, as: caller, sender: sender) { result in
            timeline.put("reply \(member)")
            answer.put(result)
        }
        return answer
    }

    /// Calls `org.freedesktop.Application.<member>` on `appID`'s scheme handler entry, as `caller`.
    public func handlerEntry(
        _ appID: String, _ member: String, _ arguments: [DBusValue], as caller: Caller = .host, sender: String = ":1.1"
    ) async -> Result<[DBusValue], DBusError> {
        await daemon.callHandlerEntry(appID, member, arguments, as: caller, sender: sender)
    }

    /// Calls `member` and requires a reply.
    public func reply(
        _ member: String, _ arguments: [DBusValue], as caller: Caller = .host, sender: String = ":1.1"
    ) async throws -> [DBusValue] {
        try await call(member, arguments, as: caller, sender: sender).get()
    }

    /// Calls `member` and requires an error; returns it.
    public func error(
        _ member: String, _ arguments: [DBusValue], as caller: Caller = .host, sender: String = ":1.1"
    ) async throws -> DBusError {
        switch await call(member, arguments, as: caller, sender: sender) {
        case .success(let values): throw DBusError.failed("\(member) answered \(values) where an error was expected")
        case .failure(let error): return error
        }
    }

    private func stop() async {
        if let task = task.withLock({ $0 }) {
            task.cancel()
            await task.value
        }
        try? FileManager.default.removeItem(atPath: root)
    }
}
