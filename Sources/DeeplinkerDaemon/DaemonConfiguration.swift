import DeeplinkerCore
import DeeplinkerRouteFiles
import FoundationEssentials
import Glibc

/// Everything `deeplinkerd`'s flags and environment decide (SPEC §9).
public struct DaemonConfiguration: Sendable {
    /// `--config-dir`: the only directory searched for route files when set.
    public var configDirectory: String?
    /// `--state-dir`: where the SQLite database lives.
    public var stateDirectory: String
    /// `--bus-address`: connect there instead of the session bus.
    public var busAddress: String?
    /// The environment used for the route-file search path (`XDG_CONFIG_HOME`, `XDG_DATA_DIRS`).
    public var environment: [String: String]
    /// How many history rows are kept.
    public var historyLimit: Int
    /// How long a launched app has to be running before its launch is said not to take (SPEC §6:
    /// 10 s); tests shorten it.
    public var launchGrace: Duration = .seconds(10)
    /// How long a stop waits for deliveries, launches and raises in flight before cutting them off.
    public var shutdownTimeout: Duration = .seconds(5)
    /// The daemon's only wall clock (receive times, TTL, de-duplication, posted notifications);
    /// tests inject a manual one.
    public var clock: any EngineClock
    /// An open store to use instead of the state directory's database (the D-Bus fuzzer runs the
    /// daemon on a ``MemoryInvocationStore``); nil for the real one.
    public var store: (any InvocationStore)? = nil
    /// Tells the kind of the process behind a connection from its pid (SPEC §3 "Callers"), with
    /// the reason when it could not; tests may stand in for it.
    public var identifyProcess: @Sendable (UInt32) -> CallerLookup = { CallerIdentityReader().lookup(pid: $0) }

    public init(
        configDirectory: String? = nil, stateDirectory: String? = nil, busAddress: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, historyLimit: Int = 10_000,
        clock: any EngineClock = SystemEngineClock()
    ) {
        self.configDirectory = configDirectory
        self.stateDirectory = stateDirectory ?? Self.defaultStateDirectory(environment: environment)
        self.busAddress = busAddress
        self.environment = environment
        self.historyLimit = historyLimit
        self.clock = clock
    }

    /// The route-file search path these settings give (SPEC §5); the daemon computes it once.
    public var routeDirectories: [String] {
        RouteDirectory.searchPath(configDir: configDirectory, environment: environment)
    }

    /// `$STATE_DIRECTORY` (set by systemd for a unit with `StateDirectory=`; its first entry), else
    /// `$XDG_STATE_HOME/deeplinker`, else `~/.local/state/deeplinker`.
    public static func defaultStateDirectory(environment: [String: String]) -> String {
        if let given = environment["STATE_DIRECTORY"]?.split(separator: ":").first, given.hasPrefix("/") {
            return String(given)
        }
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/deeplinker"
        }
        let home = environment["HOME"] ?? passwdHome() ?? "/"
        return home + "/.local/state/deeplinker"
    }
}

/// The home directory in the password database, for a daemon started without `$HOME`.
private func passwdHome() -> String? {
    guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
    return String(cString: directory)
}
