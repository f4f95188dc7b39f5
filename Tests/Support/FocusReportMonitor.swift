import DBusKit
import TaskThreads
import Foundation

/// Watches a test bus with `dbus-monitor` for `SetFocusedApp` calls (from a compositor's reporter)
/// and the daemon's answers to them, so a test can wait until the daemon has taken a report —
/// an event, not a sleep — and see every report sent, in order.
public final class FocusReportMonitor: Sendable {
    /// One `SetFocusedApp` call seen on the bus.
    public struct Call: Sendable, Hashable {
        public let sender: String
        public let serial: String
        public let appID: String
        /// The daemon's error name, when it refused; nil when it answered with a return.
        public var error: String?
    }

    private struct State {
        var calls: [Call] = []
        var answered: [Call] = []
        /// A call line waiting for its argument line.
        var header: (sender: String, serial: String)?
    }

    private let process: TestProcess
    private let state = LockedValue(State())

    /// Starts `dbus-monitor` on `busAddress` and returns once it monitors.
    public init(busAddress: String) async throws {
        process = try TestProcess(
            executable: "/usr/bin/dbus-monitor",
            arguments: ["--address", busAddress, "type='method_call',member='SetFocusedApp'", "type='method_return'", "type='error'"],
            environment: ProcessInfo.processInfo.environment)
        // Its own NameLost is the last thing it prints before monitoring.
        try await process.waitForLine(containing: "member=NameLost")
        try await process.waitForLine(containing: "string")
    }

    deinit { process.stop() }

    /// Every call parsed so far (in bus order).
    public var calls: [Call] { state.withLock { $0.calls } }

    /// Waits until the daemon has answered a `SetFocusedApp(appID)` call that was not waited for
    /// before, and returns it (calls answered earlier for other ids are passed over).
    @discardableResult
    public func waitAnswered(_ appID: String, timeout: Duration = .seconds(30)) async throws -> Call {
        while true {
            if let found = state.withLock({ state -> Call? in
                guard let index = state.answered.firstIndex(where: { $0.appID == appID }) else { return nil }
                let call = state.answered[index]
                state.answered.removeSubrange(...index)
                return call
            }) {
                return found
            }
            parse(try await process.stdoutLines.next(timeout: timeout))
        }
    }

    private func parse(_ line: String) {
        let fields = Self.fields(line)
        state.withLock { state in
            if line.hasPrefix("method call"), line.contains("member=SetFocusedApp"), let sender = fields["sender"], let serial = fields["serial"] {
                state.header = (sender, serial)
            } else if let header = state.header, line.hasPrefix("   string \"") {
                let value = String(line.dropFirst("   string \"".count).dropLast())
                state.calls.append(Call(sender: header.sender, serial: header.serial, appID: value))
                state.header = nil
            } else if line.hasPrefix("method return") || line.hasPrefix("error") {
                state.header = nil
                guard let destination = fields["destination"], let serial = fields["reply_serial"],
                      let index = state.calls.firstIndex(where: { $0.sender == destination && $0.serial == serial }) else { return }
                var call = state.calls[index]
                call.error = line.hasPrefix("error") ? fields["error_name"] ?? "error" : nil
                state.answered.append(call)
            } else if !line.hasPrefix(" ") {
                state.header = nil
            }
        }
    }

    /// `key=value` words of a dbus-monitor header line.
    static func fields(_ line: String) -> [String: String] {
        var out: [String: String] = [:]
        for word in line.split(separator: " ") {
            let parts = word.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            out[String(parts[0])] = String(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: ";")))
        }
        return out
    }
}
