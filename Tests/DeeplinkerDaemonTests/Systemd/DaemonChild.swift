import DBusKit
import DeeplinkerDaemon
import Foundation
import Synchronization

/// A real `deeplinkerd` started on a private bus with its own config and state directories, its
/// stderr collected (for the log tests) and awaited on exit.
final class DaemonChild: @unchecked Sendable {
    let process = Process()
    let bus: PrivateBus
    let client: DBusConnection
    private let errors = Pipe()
    private let collected = Collected()
    private let reader: Thread
    private let done = DispatchSemaphore(value: 0)

    init(arguments: [String] = [], environment extra: [String: String] = [:], configDir: String, stateDir: String) async throws {
        bus = try PrivateBus()
        process.executableURL = ChildProcess.productsDirectory.appendingPathComponent("deeplinkerd")
        process.arguments = ["--bus-address", bus.address, "--config-dir", configDir, "--state-dir", stateDir] + arguments
        var environment = DeeplinkerdTests.environment()
        environment["NOTIFY_SOCKET"] = nil
        environment["WATCHDOG_USEC"] = nil
        environment["JOURNAL_STREAM"] = nil
        environment.merge(extra) { $1 }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let handle = errors.fileHandleForReading
        reader = Thread { [collected, done] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                collected.data.withLock { $0.append(chunk) }
            }
            done.signal()
        }
        try process.run()
        reader.start()
        client = try DBusConnection(address: bus.address)
        _ = try await client.waitForOwner(DeeplinkerAPI.busName)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
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

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits (on another thread) for the exit; returns the status and all of stderr.
    func waitForExit() async -> (status: Int32, stderr: String) {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                process.waitUntilExit()
                done.wait()
                continuation.resume(returning: (process.terminationStatus, collected.data.withLock { String(decoding: $0, as: UTF8.self) }))
            }
        }
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

/// stderr as it arrives, shared with the thread that reads it.
private final class Collected: Sendable {
    let data = Mutex(Data())
}
