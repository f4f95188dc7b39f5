import DBusKit
import DeeplinkerDaemon
import Dispatch
import Foundation
import Logging

/// One private bus, one daemon on a ``MemoryInvocationStore`` with `Config/apps`, and one client
/// connection, shared by every input of the process. A private bus rather than a seam that calls
/// the handlers directly: the inputs then go through exactly what a bus client reaches (libdbus's
/// parsing on both sides, DBusKit's dispatch, signature and size checks, the handlers, the reply
/// marshalling), with no test-only path in the daemon; it costs a round trip per input (libFuzzer's
/// `exec/s` in `scripts/fuzz.sh fuzz-dbus-surface 60` shows the rate: 600–1,000 inputs/s here).
final class SurfaceHarness: @unchecked Sendable {
    static let shared = SurfaceHarness()

    let bus: PrivateBus
    let daemon: Daemon
    private var client: DBusConnection
    /// The repository's `Config/apps` (the example route files).
    static let routeFiles = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Config/apps").path

    private init() {
        do {
            bus = try PrivateBus()
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("deeplinker-fuzz-\(getpid())").path
            var configuration = DaemonConfiguration(
                configDirectory: Self.routeFiles, stateDirectory: state, busAddress: bus.address,
                environment: ["XDG_DATA_HOME": state + "/data"], historyLimit: 500)
            configuration.store = MemoryInvocationStore(historyLimit: 500)
            let logger = Logger(label: "deeplinkerd-fuzz") { _ in SwiftLogNoOpLogHandler() }
            let settings = configuration
            daemon = try Self.blocking { try await buildDaemon(settings, logger: logger) }
            let daemon = self.daemon
            Task.detached { try? await daemon.run() }
            client = try DBusConnection(address: bus.address)
        } catch {
            fatalError("fuzz-dbus-surface: cannot start the bus and daemon: \(error)")
        }
        // libFuzzer ends with exit(): take the bus down with the process.
        atexit { SurfaceHarness.shared.bus.stop() }
    }

    /// The call an input stands for: a demarshalled message (first byte even) with the daemon as
    /// destination (and, for bytes ≡ 2 mod 4, its path and interface), else a structure-aware
    /// decoding of a method of the API and its arguments.
    func message(for bytes: UnsafeRawBufferPointer) -> DBusMessage? {
        guard let mode = bytes.first else { return nil }
        let rest = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
        let destination = daemon.uniqueName
        if mode % 2 == 0 {
            guard let message = DBusMessage.demarshal(rest) else { return nil }
            if mode % 4 == 2 {
                return message.redirectedCall(
                    to: destination, path: DeeplinkerAPI.objectPath, interface: DeeplinkerAPI.interface)
            }
            return message.redirectedCall(to: destination)
        }
        var decoder = SurfaceCallDecoder(rest)
        return decoder.methodCall(destination: destination)
    }

    /// Sends `message` and checks the answer: a reply within 20 s, never a generic `Failed` from the
    /// daemon's own interface, and the daemon still on the bus.
    func send(_ message: DBusMessage) {
        if client.isClosed {
            // The bus drops a client that sent what it refuses; that is the bus's rule, not a finding.
            client = (try? DBusConnection(address: bus.address)) ?? { fatalError("fuzz-dbus-surface: cannot reconnect") }()
        }
        let done = DispatchSemaphore(value: 0)
        let outcome = OutcomeBox()
        client.startCall(message, timeout: .seconds(20)) { result in
            outcome.result = result
            done.signal()
        }
        done.wait()
        guard case .failure(let error)? = outcome.result else { return }
        let ours = message.interface == DeeplinkerAPI.interface && message.path == DeeplinkerAPI.objectPath
        switch error.name {
        case DBusError.noReplyName:
            fatalError("the daemon did not answer \(message.interface ?? "-").\(message.member ?? "-") in time: \(error)")
        case DBusError.serviceUnknownName, DBusError.nameHasNoOwnerName:
            fatalError("the daemon left the bus after \(message.member ?? "-"): \(error)")
        case "org.freedesktop.DBus.Error.Failed" where ours:
            fatalError("\(message.member ?? "-") was refused with no named error: \(error)")
        default:
            return
        }
    }

    /// Runs `body` to completion from synchronous code (libFuzzer's thread).
    private static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task.detached {
            do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }
}
