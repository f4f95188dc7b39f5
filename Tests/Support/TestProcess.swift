import Foundation
import DBusKit
import Spawn
import TaskThreads

/// A program a test runs: its stdout and stderr lines can be awaited (with time-outs, never
/// sleeps), keys written to its stdin, and its exit awaited with a time-out that kills it. The one
/// process runner of every test target (`DeeplinkerTestSupport`).
public final class TestProcess: Sendable {
    /// The outcome of a program run to completion.
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        /// stdout's lines.
        public var lines: [String] { stdout.split(separator: "\n").map(String.init) }
        /// stdout followed by stderr.
        public var output: String { stdout + stderr }
    }

    public let child: ChildProcess
    public let stdoutLines = Recorder<String>()
    public let stderrLines = Recorder<String>()
    /// stdin's write end, until ``closeInput()``.
    private let input: LockedValue<Int32?>
    private let drained = Recorder<Void>()
    private let collectedOut = OutputBuffer()
    private let collectedErr = OutputBuffer()

    /// Bytes read from one stream, shared with the thread that reads them.
    private final class OutputBuffer: Sendable {
        let data = LockedValue(Data())
        var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
    }

    /// The directory of this package's built products: the first directory holding `deeplinkerd`
    /// at or above the test bundle (`swift test` runs it from the build directory), else the
    /// bundle's own directory.
    public static let productsDirectory: URL = {
        var candidates: [URL] = []
        for start in [URL(fileURLWithPath: CommandLine.arguments[0]), URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()] {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(directory)
                directory = directory.deletingLastPathComponent()
            }
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("deeplinkerd").path) }
            ?? candidates[0]
    }()

    /// The path of one of this package's executables (`deeplinkerd`, `deeplinker`).
    public static func product(_ name: String) -> String {
        productsDirectory.appendingPathComponent(name).path
    }

    /// Starts `executable` with exactly `environment`.
    public init(executable: String, arguments: [String], environment: [String: String]) throws {
        let child = try ChildProcess(
            executable: executable, arguments: arguments, environment: environment,
            standardInput: .pipe, standardOutput: .pipe, standardError: .pipe)
        self.child = child
        input = LockedValue(child.standardInput)
        Self.pump(child.standardOutput!, into: stdoutLines, keep: collectedOut, drained: drained)
        Self.pump(child.standardError!, into: stderrLines, keep: collectedErr, drained: drained)
    }

    /// Starts one of this package's products (`deeplinkerd`, `deeplinker`).
    public convenience init(product: String, arguments: [String], environment: [String: String]) throws {
        try self.init(executable: Self.product(product), arguments: arguments, environment: environment)
    }

    /// Runs a program to completion (stdin at its end) and returns its status and output; past
    /// `timeout` it is killed and this throws.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        timeout: Duration = .seconds(60)
    ) async throws -> Result {
        let child = try TestProcess(executable: executable, arguments: arguments, environment: environment)
        child.closeInput()
        let status = try await child.waitForExit(timeout: timeout)
        return Result(status: status, stdout: child.stdout, stderr: child.stderr)
    }

    /// Waits for a stdout line containing `text` and returns it (lines are read in order, once).
    @discardableResult
    public func waitForLine(containing text: String, timeout: Duration = .seconds(20)) async throws -> String {
        try await stdoutLines.next(where: { $0.contains(text) }, timeout: timeout)
    }

    /// Waits for a stderr line containing `text`.
    @discardableResult
    public func waitForErrorLine(containing text: String, timeout: Duration = .seconds(20)) async throws -> String {
        try await stderrLines.next(where: { $0.contains(text) }, timeout: timeout)
    }

    /// Writes `text` and a newline to stdin.
    public func send(_ text: String) {
        input.withLock { fd in
            guard let fd else { return }
            var bytes = Array((text + "\n").utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if written > 0 {
                    bytes = bytes.dropFirst(written)
                } else if written < 0 && errno != EINTR {
                    return
                }
            }
        }
    }

    /// Ends stdin.
    public func closeInput() {
        input.withLock { fd in
            if let open = fd { close(open) }
            fd = nil
        }
    }

    /// Waits for the exit and for its output to be read; past `timeout` the process is killed and
    /// this throws.
    public func waitForExit(timeout: Duration = .seconds(60)) async throws -> Int32 {
        try await Self.waitForExit(of: child, drained: drained, timeout: timeout)
    }

    /// Waits for `child` to exit and for the readers of its stdout and stderr to each put once on
    /// `drained`; past `timeout` it is killed (SIGKILL) and this throws. Shared by the runners
    /// that read their output differently (lines here, frames in `NativeHostProcess`).
    static func waitForExit(of child: ChildProcess, drained: Recorder<Void>, timeout: Duration) async throws -> Int32 {
        let exited = Recorder<Int32>()
        Task { exited.put(await child.exit().status) }
        do {
            let status = try await exited.next(timeout: timeout)
            try await drained.wait(count: 2, timeout: timeout) { _ in true }
            return status
        } catch {
            child.kill()
            throw error
        }
    }

    /// Waits for the exit (see ``waitForExit(timeout:)``); returns the status and all of stderr.
    public func finish(timeout: Duration = .seconds(60)) async throws -> (status: Int32, stderr: String) {
        let status = try await waitForExit(timeout: timeout)
        return (status, stderr)
    }

    /// Whether the process ended by a signal (the status is then the signal's number).
    public var endedBySignal: Bool {
        if case .signalled? = child.termination { true } else { false }
    }

    /// Everything written to stdout / stderr so far.
    public var stdout: String { collectedOut.text }
    public var stderr: String { collectedErr.text }

    public func signal(_ number: Int32) { child.signal(number) }

    /// The process id (for `/proc` and tools that attach to it).
    public var processIdentifier: Int32 { child.processIdentifier }

    /// Kills the process (SIGKILL: a child may block SIGTERM) and reaps it.
    public func stop() {
        child.kill()
    }

    deinit {
        stop()
        closeInput()
    }

    /// Reads `fd` to its end on a thread of its own, line by line, then closes it.
    private static func pump(_ fd: Int32, into lines: Recorder<String>, keep: OutputBuffer, drained: Recorder<Void>) {
        Thread.detachNewThread {
            var buffer = Data()
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(fd, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                keep.data.withLock { $0.append(contentsOf: chunk[0..<count]) }
                buffer.append(contentsOf: chunk[0..<count])
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.put(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...newline)
                }
            }
            close(fd)
            if !buffer.isEmpty { lines.put(String(decoding: buffer, as: UTF8.self)) }
            drained.put(())
        }
    }
}

extension TestProcess {
    /// Runs a program to completion from code that cannot await (a trait's condition, a `deinit`),
    /// its output discarded; past `timeout` it is killed and this throws.
    @discardableResult
    public static func runBlocking(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(60)) throws -> Int32 {
        let child = try ChildProcess(
            executable: executable, arguments: arguments, standardInput: .null, standardOutput: .null, standardError: .null)
        guard let termination = child.waitUntilExit(timeout: timeout) else {
            child.kill()
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(executable) \(arguments) did not exit within \(timeout)"])
        }
        return termination.status
    }
}
