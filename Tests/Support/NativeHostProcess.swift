import DBusKit
import TaskThreads
import DeeplinkerCore
import Foundation
import Spawn

/// `deeplinker native-host` as a browser runs it: framed messages written to its stdin, framed
/// replies read from its stdout (each checked against the browser's 1 MiB limit), stderr kept.
public final class NativeHostProcess: Sendable {
    public let child: ChildProcess
    /// Each reply's JSON text, in order.
    public let replies = Recorder<String>()
    /// Problems with what the host wrote (a frame over 1 MiB, output cut inside a frame).
    public let protocolErrors = Recorder<String>()
    private let input: LockedValue<Int32?>
    private let drained = Recorder<Void>()
    private let errorText = LockedValue(Data())

    /// Starts `executable` (default: this package's `deeplinker`) with `arguments` (default
    /// `native-host`) and `environment`.
    public init(
        executable: String = TestProcess.product("deeplinker"), arguments: [String] = ["native-host"],
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        child = try ChildProcess(
            executable: executable, arguments: arguments, environment: environment,
            standardInput: .pipe, standardOutput: .pipe, standardError: .pipe)
        input = LockedValue(child.standardInput)
        let replies = self.replies, errors = protocolErrors, drained = self.drained, errorText = self.errorText
        let stdout = child.standardOutput!, stderr = child.standardError!
        Thread.detachNewThread {
            var decoder = NativeFrameDecoder(limit: NativeMessageFraming.maxOutgoing)
            var chunk = [UInt8](repeating: 0, count: 65_536)
            reading: while true {
                let count = read(stdout, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                decoder.append(chunk[0..<count])
                do {
                    while let payload = try decoder.nextFrame() { replies.put(String(decoding: payload, as: UTF8.self)) }
                } catch {
                    errors.put("\(error)")
                    break reading
                }
            }
            do { try decoder.finish() } catch { errors.put("\(error)") }
            close(stdout)
            drained.put(())
        }
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(stderr, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                errorText.withLock { $0.append(contentsOf: chunk[0..<count]) }
            }
            close(stderr)
            drained.put(())
        }
    }

    /// Writes raw bytes to stdin (false once the host has closed it).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        input.withLock { fd in
            guard let fd else { return false }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// Writes one framed message.
    @discardableResult
    public func send(_ json: String) -> Bool {
        write(NativeMessageFraming.header(length: json.utf8.count) + Array(json.utf8))
    }

    /// The next reply, decoded as a JSON object.
    public func reply(timeout: Duration = .seconds(20)) async throws -> [String: Any] {
        let text = try await replies.next(timeout: timeout)
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw DBusError.failed("not a JSON object: \(text)")
        }
        return object
    }

    /// Sends `json` and returns the reply.
    public func ask(_ json: String) async throws -> [String: Any] {
        send(json)
        return try await reply()
    }

    /// Ends stdin, as a browser does when it is done with the host.
    public func closeInput() {
        input.withLock { fd in
            if let open = fd { close(open) }
            fd = nil
        }
    }

    /// Everything written to stderr so far.
    public var stderr: String { errorText.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Waits for the exit and the end of its output; past `timeout` it is killed and this throws.
    public func waitForExit(timeout: Duration = .seconds(30)) async throws -> Int32 {
        try await TestProcess.waitForExit(of: child, drained: drained, timeout: timeout)
    }

    deinit {
        child.kill()
        closeInput()
    }
}
