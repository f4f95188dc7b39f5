import DeeplinkerProtocol

/// The daemon's read-only properties (`org.freedesktop.DBus.Properties.GetAll`), what
/// `deeplinker status` shows about the running daemon.
public struct DaemonProperties: Sendable, Hashable {
    public var version: String
    /// µs since the epoch when the daemon started.
    public var startedAtMicroseconds: Int64
    public var stateDirectory: String
    /// Bytes of the database and its write-ahead log.
    public var databaseSize: UInt64
    /// The errors of route files that failed at the last load or reload.
    public var brokenRouteFiles: [String]
    /// The route-file search path the daemon loads from (`RouteDirectories`); empty from a daemon
    /// too old to say.
    public var routeDirectories: [String]
    /// The last `SetFocusedApp` caller (`FocusReporter`); nil until one called.
    public var focusReporter: FocusReporterInfo?
    /// What each app's route file serves (`RouteFiles`); nil from a daemon too old to say.
    public var routeFiles: [ServedRouteFile]?

    public init(
        version: String, startedAtMicroseconds: Int64, stateDirectory: String, databaseSize: UInt64, brokenRouteFiles: [String],
        routeDirectories: [String] = [], focusReporter: FocusReporterInfo? = nil, routeFiles: [ServedRouteFile]? = nil
    ) {
        self.routeFiles = routeFiles
        self.routeDirectories = routeDirectories
        self.focusReporter = focusReporter
        self.version = version
        self.startedAtMicroseconds = startedAtMicroseconds
        self.stateDirectory = stateDirectory
        self.databaseSize = databaseSize
        self.brokenRouteFiles = brokenRouteFiles
    }
}

/// The daemon's `FocusReporter` property: which connection last called `SetFocusedApp`, its
/// process's command name, the app it reported and when (SPEC §3).
public struct FocusReporterInfo: Sendable, Hashable {
    public var sender: String
    public var command: String
    public var appID: String
    /// µs since the epoch.
    public var reportedAtMicroseconds: Int64

    public init(sender: String, command: String, appID: String, reportedAtMicroseconds: Int64) {
        self.sender = sender
        self.command = command
        self.appID = appID
        self.reportedAtMicroseconds = reportedAtMicroseconds
    }
}
