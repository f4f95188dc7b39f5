/// Keys of the `a{sv}` that `GetInvocation` returns (SPEC §3, Queries and control), shared by the
/// daemon, the client library and the CLI.
public enum InvocationField {
    /// `s`
    public static let invocationID = "invocation-id"
    /// `s`
    public static let appID = "app-id"
    /// `s`: the route's source (`universal-link` for an https link), else the invocation's.
    public static let source = "source"
    /// `s`: `""` when nothing was routed.
    public static let target = "target"
    /// `a{ss}`
    public static let parameters = "parameters"
    /// `s`: the invoked URL, URL sources only.
    public static let url = "url"
    /// `s`: `pending`, `delivering`, `delivered`, `superseded`, `expired`, `discarded`, `failed`, `rejected`.
    public static let status = "status"
    /// `x`: µs since the epoch.
    public static let receivedAt = "received-at"
    /// `u`: delivery attempts started.
    public static let attempts = "attempts"
    /// `s`: why it failed, was rejected or expired; `""` otherwise.
    public static let detail = "detail"
}
