import DBusKit
import DeeplinkerCore
import Foundation

/// Runs an argv (no shell) with placeholders substituted; exit 0 acknowledges (`exec` delivery).
enum CommandRunner {
    /// `argument` with each placeholder (a key of `values`, e.g. `{target}`) replaced, in one pass
    /// over the original text: a substituted value is never scanned again, so a parameter value
    /// that contains `{target}` stays as it was.
    static func substitute(_ argument: String, _ values: [String: String]) -> String {
        var out = ""
        var rest = Substring(argument)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let tail = rest[open...]
            if let key = values.keys.first(where: { tail.hasPrefix($0) }) {
                out += values[key]!
                rest = tail.dropFirst(key.count)
            } else {
                out += "{"
                rest = tail.dropFirst()
            }
        }
        return out + rest
    }

    static func run(_ command: [String], substituting values: [String: String], timeout: Duration) async -> DeliveryOutcome {
        guard let executable = command.first else { return .refused("empty deliver-command") }
        let arguments = command.dropFirst().map { substitute($0, values) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        process.standardInput = FileHandle.nullDevice
        let status: Int32? = await withCheckedContinuation { continuation in
            let finished = Finished(continuation)
            process.terminationHandler = { finished.resume($0.terminationStatus) }
            do {
                try process.run()
            } catch {
                finished.resume(nil)
                return
            }
            Task {
                try? await Task.sleep(for: timeout)
                if process.isRunning {
                    kill(process.processIdentifier, SIGKILL)
                    finished.resume(-1)
                }
            }
        }
        switch status {
        case nil: return .refused("cannot run \(executable)")
        case 0: return .acknowledged
        case -1: return .timedOut
        case let code?: return .refused("\(executable) exited with status \(code)")
        }
    }

    /// Resumes a continuation once, whichever of exit and time-out comes first.
    private final class Finished: Sendable {
        private let continuation: LockedValue<CheckedContinuation<Int32?, Never>?>

        init(_ continuation: CheckedContinuation<Int32?, Never>) { self.continuation = LockedValue(continuation) }

        func resume(_ value: Int32?) {
            let c = continuation.withLock { c in
                defer { c = nil }
                return c
            }
            c?.resume(returning: value)
        }
    }
}
