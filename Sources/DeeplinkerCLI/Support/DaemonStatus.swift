import DeeplinkerClient

/// What `deeplinker status --json` prints (one line).
struct DaemonStatus: Codable, Sendable {
    struct Pending: Codable, Sendable {
        var invocationID: String
        var source: String
        var target: String
        var receivedAtMicroseconds: Int64
        /// Why it waits, when the daemon says (`GetInvocation`'s `detail`): a launch that did not
        /// take, a refused delivery; `""` otherwise.
        var detail: String = ""

        enum CodingKeys: String, CodingKey {
            case invocationID = "invocation_id"
            case source, target, detail
            case receivedAtMicroseconds = "received_at_usec"
        }
    }

    var running: Bool
    var activatable: Bool
    var version: String?
    var startedAtMicroseconds: Int64?
    var uptimeSeconds: Int64?
    var owner: String?
    var pid: UInt32?
    var stateDirectory: String?
    var databaseBytes: UInt64?
    var apps: [String]?
    var pending: [String: Pending]?
    var brokenRouteFiles: [String]?
    /// The claimed domains and their verdicts (SPEC §10); nil from a daemon without `GetLinkClaims`.
    var linkClaims: [DomainChecks.Row]?

    enum CodingKeys: String, CodingKey {
        case running, activatable, version, owner, pid, apps, pending
        case startedAtMicroseconds = "started_at_usec"
        case uptimeSeconds = "uptime_seconds"
        case stateDirectory = "state_directory"
        case databaseBytes = "database_bytes"
        case brokenRouteFiles = "broken_route_files"
        case linkClaims = "link_claims"
    }
}
