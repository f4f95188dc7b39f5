import DeeplinkerTestSupport
import Foundation

/// A long-running `deeplinker` (or other) process: lines of its stdout and stderr can be awaited,
/// keys written to its stdin. Stopped with SIGKILL (a SIGTERM may be blocked in children).
final class CLIProcess: Sendable {
    let process: Process
    let stdoutLines = Recorder<String>()
    let stderrLines = Recorder<String>()
    private let input = Pipe()

    init(executable: String, arguments: [String], environment: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        self.process = process
        Self.pump(out.fileHandleForReading, into: stdoutLines)
        Self.pump(err.fileHandleForReading, into: stderrLines)
        try process.run()
    }

    /// Waits for a stdout line containing `text` and returns it.
    @discardableResult
    func waitForLine(containing text: String, timeout: Duration = .seconds(20)) async throws -> String {
        try await stdoutLines.next(where: { $0.contains(text) }, timeout: timeout)
    }

    /// Waits for a stderr line containing `text`.
    @discardableResult
    func waitForErrorLine(containing text: String, timeout: Duration = .seconds(20)) async throws -> String {
        try await stderrLines.next(where: { $0.contains(text) }, timeout: timeout)
    }

    /// Writes `text` and a newline to stdin.
    func send(_ text: String) {
        input.fileHandleForWriting.write(Data((text + "\n").utf8))
    }

    /// Waits for the process to end on its own; returns its status.
    func waitForExit() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { [process] in
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }

    private static func pump(_ handle: FileHandle, into inbox: Recorder<String>) {
        Thread.detachNewThread {
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    inbox.put(line)
                }
            }
        }
    }
}
