import DeeplinkerTestSupport
import Foundation

/// Runs a program to completion (no shell) and returns its exit status and output.
enum Subprocess {
    struct Result: Sendable {
        let status: Int32
        let output: String
    }

    /// Runs `argv` (killed after a minute); `output` is its stdout followed by its stderr.
    static func run(_ argv: [String]) async throws -> Result {
        let result = try await TestProcess.run(argv[0], Array(argv.dropFirst()), environment: ProcessInfo.processInfo.environment)
        return Result(status: result.status, output: result.stdout + result.stderr)
    }

    /// The values of the `string "..."` lines of `dbus-send --print-reply` output, in order.
    static func dbusSendStrings(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("string \""), trimmed.hasSuffix("\"") else { return nil }
            return String(trimmed.dropFirst(8).dropLast())
        }
    }
}
