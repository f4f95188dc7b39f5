import DBusKit
import DeeplinkerDaemon
import Foundation
import Synchronization
import DeeplinkerTestSupport

/// A real `deeplinkerd` started on a private bus with its own config and state directories, its
/// stderr collected (for the log tests) and awaited on exit.
final class DaemonChild: Sendable {
    let child: TestProcess
    let bus: PrivateBus
    let client: DBusConnection

    init(arguments: [String] = [], environment extra: [String: String] = [:], configDir: String, stateDir: String) async throws {
        bus = try PrivateBus()
        var environment = DeeplinkerdTests.environment()
        environment["NOTIFY_SOCKET"] = nil
        environment["WATCHDOG_USEC"] = nil
        environment["JOURNAL_STREAM"] = nil
        environment.merge(extra) { $1 }
        child = try TestProcess(
            product: "deeplinkerd",
            arguments: ["--bus-address", bus.address, "--config-dir", configDir, "--state-dir", stateDir] + arguments,
            environment: environment)
        client = try DBusConnection(address: bus.address)
        _ = try await client.waitForOwner(DeeplinkerAPI.busName)
    }

    deinit {
        child.stop()
        client.close()
        bus.stop()
    }

    /// Calls a method of the daemon's interface.
    @discardableResult
    func call(_ member: String, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        try await client.call(
            destination: DeeplinkerAPI.busName, path: DeeplinkerAPI.objectPath, interface: DeeplinkerAPI.interface,
            member: member, arguments: arguments)
    }

    func signal(_ number: Int32) { child.signal(number) }

    /// Waits for the exit; returns the status and all of stderr.
    func waitForExit() async throws -> (status: Int32, stderr: String) {
        try await child.finish()
    }
}

extension DBusConnection {
    /// The owner of `name` once it has one (NameOwnerChanged, no polling); fails after `timeout`.
    func waitForOwner(_ name: String, timeout: Duration = .seconds(20)) async throws -> String {
        let appeared = AsyncStream<String>.makeStream()
        let id = try await onNameOwnerChanged(name: name) { _, _, owner in
            if !owner.isEmpty { appeared.continuation.yield(owner) }
        }
        defer { unsubscribe(id) }
        if let owner = try await nameOwner(name) { return owner }
        let timer = Task {
            try await Task.sleep(for: timeout)
            appeared.continuation.finish()
        }
        defer { timer.cancel() }
        for await owner in appeared.stream { return owner }
        throw DBusError.failed("\(name) got no owner within \(timeout)")
    }
}
