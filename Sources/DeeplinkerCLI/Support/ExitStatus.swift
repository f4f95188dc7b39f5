import DBusKit
import DeeplinkerClient
import DeeplinkerCore
import DeeplinkerProtocol

/// The `deeplinker` exit codes, one per kind of failure, so scripts can tell them apart.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Success.
    case ok = 0
    /// A local failure not covered below (a file that cannot be written, `xdg-mime` failing).
    case failure = 1
    /// Bad command-line usage (unknown verb or option, missing argument).
    case usage = 2
    /// The daemon is not running (nobody owns `org.deeplinker.Deeplinker1`), or there is no bus.
    case daemonNotRunning = 3
    /// `UnknownApp`, `NoApp`, `AmbiguousApp`, `UnknownInvocation`.
    case unknownApp = 4
    /// `NoRoute`, `UnknownShortcut`, `ShortcutUnavailable`.
    case noRoute = 5
    /// `InvalidURL`, `InvalidPayload`, `InvalidParameter`, `TooLarge`, `Unsupported`.
    case invalidInput = 6
    /// `AccessDenied`.
    case accessDenied = 7
    /// `InvalidConfig`, and route files that `check` finds broken.
    case configError = 8
    /// Any other D-Bus error (a time-out, an unexpected reply).
    case dbusError = 9
    /// `StorageFailed`: the daemon could not store the invocation (disk full, I/O error); retry later.
    case storageFailed = 10
    /// `RateLimited`: a sandboxed caller made more than 100 invocations in one second; retry later.
    case rateLimited = 11
    /// `doctor`: at least one check failed (each failed line names its fix).
    case doctorFailed = 12
    /// `focus-watch`: no focus backend works here, or the display it followed went away.
    case focusBackendGone = 13
    /// `verify`: a domain is not verified (not listed, or unreachable past the grace).
    case domainNotVerified = 14
    /// `native-host`: a message the browser sent cannot be read past (a length over 64 MiB, or
    /// input that ends inside a message).
    case browserProtocol = 15

    /// The status for a Deeplinker error name (`NoRoute`), nil for names outside §4.
    public static func forDeeplinkerError(named name: String) -> ExitStatus? {
        DeeplinkerErrorName(rawValue: name).map(forDeeplinkerError)
    }

    /// The status for each error of SPEC §4.
    public static func forDeeplinkerError(_ error: DeeplinkerErrorName) -> ExitStatus {
        switch error {
        case .unknownApp, .noApp, .ambiguousApp, .unknownInvocation: .unknownApp
        case .noRoute, .unknownShortcut, .shortcutUnavailable: .noRoute
        case .invalidURL, .invalidPayload, .invalidParameter, .tooLarge, .unsupported: .invalidInput
        case .accessDenied: .accessDenied
        case .invalidConfig: .configError
        case .storageFailed: .storageFailed
        case .rateLimited: .rateLimited
        }
    }

    /// The status for an error a daemon call threw.
    public static func forDBusError(_ error: DBusError) -> ExitStatus {
        if error.isDaemonNotRunning { return .daemonNotRunning }
        if let name = error.deeplinkerErrorName, let status = forDeeplinkerError(named: name) { return status }
        return .dbusError
    }

    /// One line per status, for `--help` and the docs.
    public static let table = """
        EXIT CODES:
          0  success
          1  local failure (a file could not be written, xdg-mime failed)
          2  usage error
          3  daemon not running or could not be started (or no session bus)
          4  unknown app, no app for the URL, several apps claim it, or unknown invocation
          5  no route (also unknown or unpublished shortcut)
          6  invalid input (URL, payload, parameter, too large, unsupported)
          7  access denied
          8  configuration error (route files)
          9  other D-Bus error
          10 the daemon could not store the invocation (disk full, I/O error)
          11 rate limited (a sandboxed caller made over 100 invocations in a second)
          12 doctor: a check failed
          13 focus-watch: no focus backend works, or the display went away
          14 verify: a domain is not verified (not listed, or unreachable)
          15 native-host: the browser sent a message it cannot read past (over 64 MiB, cut short)
        """
}
