import FoundationEssentials
import Glibc
import Spawn

/// A `dbus-daemon` of our own, for tests and for running without a session bus. It listens on a
/// socket in a fresh temporary directory and bus-activates services from `serviceDirectories`.
public final class PrivateBus: Sendable {
    /// The address to connect to (what `DBUS_SESSION_BUS_ADDRESS` would hold).
    public let address: String
    public let directory: URL
    private let process: ChildProcess

    /// The `dbus-daemon`'s process id (the benchmark reads its CPU time from `/proc`).
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Starts the bus and waits until it prints its address.
    public init(serviceDirectories: [String] = [], executable: String = "/usr/bin/dbus-daemon") throws {
        let fileManager = FileManager.default
        directory = fileManager.temporaryDirectory.appendingPathComponent("deeplinker-bus-\(UUID().uuidString.prefix(8))")
        try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
        let services = serviceDirectories.map { "  <servicedir>\(Self.escape($0))</servicedir>\n" }.joined()
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <keep_umask/>
              <listen>unix:dir=\(Self.escape(directory.path))</listen>
              <auth>EXTERNAL</auth>
            \(services)  <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
              <limit name="reply_timeout">300000</limit>
              <limit name="max_replies_per_connection">50000</limit>
              <limit name="max_connections_per_user">10000</limit>
              <limit name="max_match_rules_per_connection">50000</limit>
            </busconfig>

            """
        let configURL = directory.appendingPathComponent("bus.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)

        // stderr goes nowhere so that a bus outliving a crashed parent holds none of its pipes.
        // ChildProcess starts it with no signal blocked: Swift's worker threads block most
        // signals, and a dbus-daemon with SIGCHLD blocked never learns that an activated service
        // exited (activation hangs until its time-out).
        let process = try ChildProcess(
            executable: executable, arguments: ["--config-file=\(configURL.path)", "--print-address=1", "--nofork"],
            standardInput: .null, standardOutput: .pipe, standardError: .null)
        self.process = process

        let output = process.standardOutput!
        defer { close(output) }
        var line: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while !line.contains(UInt8(ascii: "\n")) {
            let count = read(output, &chunk, chunk.count)
            if count > 0 {
                line += chunk[0..<count]
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        let lines = String(decoding: line, as: UTF8.self).split(separator: "\n").map(String.init)
        guard let first = lines.first, first.hasPrefix("unix:") else {
            process.kill()
            throw DBusError.failed("dbus-daemon exited without printing an address")
        }
        address = first
    }

    deinit {
        stop()
    }

    /// Stops the bus (SIGKILL) and removes its directory.
    public func stop() {
        process.kill()
        try? FileManager.default.removeItem(at: directory)
    }

    private static func escape(_ s: String) -> String {
        s.replacing("&", with: "&amp;").replacing("<", with: "&lt;")
    }
}
