/// One row of the daemon's `RouteFiles` property: which file an app's routes come from, the
/// digest of the bytes it parsed (`RouteFileDigest`), and the error of its last read.
public struct DaemonRouteFile: Sendable, Hashable {
    public var path: String
    public var appID: String
    /// FNV-1a of the bytes the served routes came from; 0 when the app never loaded.
    public var digest: UInt64
    /// The last read's error (`file:line:column: message`), "" when it loaded.
    public var error: String

    public init(path: String, appID: String, digest: UInt64, error: String) {
        self.path = path
        self.appID = appID
        self.digest = digest
        self.error = error
    }
}
