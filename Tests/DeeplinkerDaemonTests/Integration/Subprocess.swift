import Foundation

/// Runs a program to completion (no shell) and returns its exit status and output.
enum Subprocess {
    struct Result: Sendable {
        let status: Int32
        let output: String
    }

    static func run(_ argv: [String]) async throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        return Result(status: status, output: String(decoding: data, as: UTF8.self))
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
