import DeeplinkerCore
import Spawn

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
        let child: ChildProcess
        do {
            child = try executable.hasPrefix("/")
                ? ChildProcess(executable: executable, arguments: arguments)
                : ChildProcess(executable: "/usr/bin/env", arguments: [executable] + arguments)
        } catch {
            return .refused("cannot run \(executable)")
        }
        switch await child.exit(killingAfter: timeout) {
        case nil: return .timedOut
        case .exited(0)?: return .acknowledged
        case let termination?: return .refused("\(executable) \(termination)")
        }
    }
}
