import Foundation

/// A small dbus-python program used as an independent peer (a real process that can vanish).
final class PythonPeer: @unchecked Sendable {
    let process = Process()
    private let output = Pipe()
    private let input = Pipe()
    private var buffer = Data()

    init(script: String, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script] + arguments
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Blocks until the peer prints `line`.
    func waitForLine(_ line: String) throws {
        while true {
            if let text = String(data: buffer, encoding: .utf8), text.split(separator: "\n").contains(Substring(line)) { return }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { throw CocoaError(.fileReadUnknown) }
            buffer.append(chunk)
        }
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
