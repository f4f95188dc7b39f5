import DBusKit
import Foundation
import Spawn
import TaskThreads

/// A Flatpak-like sandbox without Flatpak, as Flatpak itself builds one: `bwrap` runs
/// `xdg-dbus-proxy --filter --own=APP [--talk=org.deeplinker.Deeplinker1]` in a fresh root holding
/// `/usr`, `/etc` (read-only), the bus's folder, the proxy socket's folder and a `/.flatpak-info`
/// that names the app. A client connecting to ``address`` is seen on the bus as the proxy, whose
/// `/proc/PID/root/.flatpak-info` names the app.
///
/// Only ``withSandbox(appID:bus:talk:_:)`` makes one: whether the body returns or throws, its
/// client connections are closed, the sandbox is killed and its folder removed.
public final class SandboxFixture: Sendable {
    public let appID: String
    /// The proxy's address, for the sandboxed app's connections.
    public let address: String
    /// The proxy's process id: the pid the bus reports for every connection through it.
    public let proxyPID: Int32
    private let sandbox: ChildProcess
    private let directory: TemporaryDirectory
    private let clients = LockedValue<[DBusConnection]>([])

    /// Runs `body` with a sandbox for `appID` on `bus`, ready to accept connections; everything
    /// it started is killed afterwards. Without `talk` the proxy lets the app see no daemon.
    public static func withSandbox<T>(
        appID: String, bus: PrivateBus, talk: Bool = true, _ body: (SandboxFixture) async throws -> T
    ) async throws -> T {
        let fixture = try await SandboxFixture(appID: appID, bus: bus, talk: talk)
        defer { fixture.shutdown() }
        return try await body(fixture)
    }

    /// A new connection from inside the sandbox (closed at the end).
    public func connect() throws -> DBusConnection {
        let connection = try DBusConnection(address: address)
        clients.withLock { $0.append(connection) }
        return connection
    }

    private init(appID: String, bus: PrivateBus, talk: Bool) async throws {
        self.appID = appID
        let directory = try TemporaryDirectory(prefix: "deeplinker-sandbox")
        self.directory = directory
        let socket = directory.appending("bus")
        address = "unix:path=\(socket)"
        let logFile = open(directory.appending("sandbox.log"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard logFile >= 0 else { throw SandboxError.failed("cannot create the sandbox's log in \(directory.path)") }
        defer { close(logFile) }
        var arguments = [
            "--die-with-parent",
            "--ro-bind", "/usr", "/usr",
            "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
            "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
            "--ro-bind", "/etc", "/etc", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
            "--ro-bind", bus.directory.path, bus.directory.path,
            "--bind", directory.path, directory.path,
            // The data comes from stdin (written below); the app's identity is this file.
            "--ro-bind-data", "0", "/.flatpak-info",
            "/usr/bin/xdg-dbus-proxy", bus.address, socket, "--filter", "--own=\(appID)",
            // The proxy writes one byte to stdout once its socket accepts connections.
            "--fd=1",
        ]
        if talk { arguments.append("--talk=\(DaemonFixture.busName)") }
        let sandbox = try ChildProcess(
            executable: "/usr/bin/bwrap", arguments: arguments,
            standardInput: .pipe, standardOutput: .pipe, standardError: .descriptor(logFile))
        let ready = Recorder<Bool>()
        do {
            let info = Array("[Application]\nname=\(appID)\n".utf8)
            let written = info.withUnsafeBytes { write(sandbox.standardInput!, $0.baseAddress, $0.count) }
            close(sandbox.standardInput!)
            guard written == info.count else { throw SandboxError.failed("cannot write .flatpak-info to bwrap") }
            let output = sandbox.standardOutput!
            Thread.detachNewThread {
                var byte: UInt8 = 0
                var count: Int
                repeat { count = read(output, &byte, 1) } while count < 0 && errno == EINTR
                ready.put(count == 1)
            }
            guard try await ready.next(timeout: .seconds(20)) else {
                throw SandboxError.failed("the sandbox exited before its proxy was ready: \(Self.log(directory))")
            }
            proxyPID = try Self.onlyChild(of: sandbox.processIdentifier)
            self.sandbox = sandbox
        } catch {
            sandbox.kill()
            if let output = sandbox.standardOutput { close(output) }
            throw error
        }
    }

    /// Kills the sandbox (its proxy dies with it: `--die-with-parent`) and removes its folder.
    private func shutdown() {
        for client in clients.withLock({ $0 }) { client.close() }
        sandbox.kill()
        close(sandbox.standardOutput!)
        directory.remove()
    }

    deinit {
        if sandbox.isRunning { sandbox.kill() }
    }

    /// bwrap's log so far.
    private static func log(_ directory: TemporaryDirectory) -> String {
        (try? String(contentsOfFile: directory.appending("sandbox.log"), encoding: .utf8)) ?? ""
    }

    /// The one child of `pid` (bwrap's child runs the proxy).
    private static func onlyChild(of pid: Int32) throws -> Int32 {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        let children = text.split(separator: " ").compactMap { Int32($0) }
        guard children.count == 1 else { throw SandboxError.failed("bwrap \(pid) has children \(children), not one") }
        return children[0]
    }
}

/// Why a sandbox could not be built.
public enum SandboxError: Error, CustomStringConvertible {
    case failed(String)

    public var description: String {
        switch self {
        case .failed(let message): message
        }
    }
}
