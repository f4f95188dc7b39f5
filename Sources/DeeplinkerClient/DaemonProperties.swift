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

    public init(version: String, startedAtMicroseconds: Int64, stateDirectory: String, databaseSize: UInt64, brokenRouteFiles: [String]) {
        self.version = version
        self.startedAtMicroseconds = startedAtMicroseconds
        self.stateDirectory = stateDirectory
        self.databaseSize = databaseSize
        self.brokenRouteFiles = brokenRouteFiles
    }
}
