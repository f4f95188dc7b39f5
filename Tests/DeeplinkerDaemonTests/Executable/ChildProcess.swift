import Foundation

/// A built executable of this package run as a child, with its output read line by line.
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private var buffer = Data()
    private var errorBuffer = Data()

    /// The directory holding this package's built products (next to the test bundle).
    static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    init(_ product: String, arguments: [String], environment: [String: String]) throws {
        process.executableURL = Self.productsDirectory.appendingPathComponent(product)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Blocks until a stdout line satisfies `predicate`; nil if the output ends first.
    func line(where predicate: (String) -> Bool) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if predicate(line) { return line }
                continue
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }

    /// Waits for the exit; returns the status and everything written to stderr.
    func waitForExit() -> (status: Int32, stderr: String) {
        let rest = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorBuffer.append(rest)
        return (process.terminationStatus, String(decoding: errorBuffer, as: UTF8.self))
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }
}
