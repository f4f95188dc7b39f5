import FoundationEssentials
import Glibc
import Spawn

/// Runs a helper program found on `PATH` (gsettings, gnome-shell, gio, ...) to its end and
/// collects its standard output: one copy for `doctor` and the GNOME extension commands.
enum PathTool {
    /// Runs the first executable `name` on `environment`'s `PATH` with `arguments`, stdin from
    /// `/dev/null`; its exit status (-1 if it did not exit) and stdout. Nil when it is missing or
    /// does not start.
    static func run(
        _ name: String, _ arguments: [String], environment: [String: String], standardError: ChildProcess.Stream
    ) -> (status: Int32, output: String)? {
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { (dir: Substring) -> String in "\(dir)/\(name)" }
            .first { (candidate: String) in access(candidate, X_OK) == 0 }
        guard let path, let child = try? ChildProcess(
            executable: path, arguments: arguments, environment: environment, standardInput: .null, standardOutput: .pipe,
            standardError: standardError), let out = child.standardOutput else { return nil }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(out, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        close(out)
        let status: Int32
        switch child.waitUntilExit() {
        case .exited(let code): status = code
        default: status = -1
        }
        return (status, String(decoding: bytes, as: UTF8.self))
    }
}
