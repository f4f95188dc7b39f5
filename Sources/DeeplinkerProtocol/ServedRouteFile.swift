/// What the daemon serves from one app's route file (a row of its `RouteFiles` property): the
/// file, the digest of the bytes its routes came from, and the error of the last read.
public struct ServedRouteFile: Sendable, Hashable {
    /// The winning `<app-id>.toml` of the app at the last load.
    public var path: String
    public var appID: String
    /// `RouteFileDigest` of the bytes the app's routes were parsed from; after a broken edit the
    /// previous good file's (the app keeps its routes), 0 when the app never loaded.
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
