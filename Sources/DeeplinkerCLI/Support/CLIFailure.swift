import DBusKit
import DeeplinkerClient
import DeeplinkerCore

/// A failure the CLI reports with a message on stderr and a specific exit status.
public struct CLIFailure: Error, Sendable, CustomStringConvertible {
    public var status: ExitStatus
    public var message: String
    /// The D-Bus or Deeplinker error name, when there is one (shown with `--json`).
    public var errorName: String?

    public init(_ status: ExitStatus, _ message: String, errorName: String? = nil) {
        self.status = status
        self.message = message
        self.errorName = errorName
    }

    public var description: String { message }

    /// A daemon call failed: says plainly when the daemon is not running.
    public static func from(_ error: DBusError, busAddress: String?) -> CLIFailure {
        let status = ExitStatus.forDBusError(error)
        if error.isSpawnFailure {
            return CLIFailure(
                status,
                "the Deeplinker daemon is not running and could not be started (\(error.name): \(error.message)); see `journalctl --user -u deeplinkerd` or run `deeplinkerd` by hand",
                errorName: error.name)
        }
        if status == .daemonNotRunning {
            let bus = busAddress.map { "the bus at \($0)" } ?? "the session bus"
            return CLIFailure(
                status,
                "the Deeplinker daemon is not running (nobody owns \(DeeplinkerNames.busName) on \(bus)); start it with `deeplinkerd` or `systemctl --user start deeplinkerd`",
                errorName: error.name)
        }
        let short = error.deeplinkerErrorName ?? error.name
        return CLIFailure(status, "\(short): \(error.message)", errorName: error.name)
    }

    /// An offline (route file) resolution failed.
    public static func from(_ error: DeeplinkerError) -> CLIFailure {
        CLIFailure(
            ExitStatus.forDeeplinkerError(named: error.name) ?? .failure, "\(error.name): \(error.message)",
            errorName: DeeplinkerNames.errorPrefix + error.name)
    }
}
