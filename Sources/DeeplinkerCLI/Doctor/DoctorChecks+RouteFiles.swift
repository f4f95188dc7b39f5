import DeeplinkerProtocol
import DeeplinkerClient
import DeeplinkerCore
import FoundationEssentials

/// Whether the running daemon serves each route file as it is on disk now (SPEC §7): the
/// daemon's `RouteFiles` property gives the digest of the bytes each app's routes came from, and
/// doctor hashes the file it reads with the same `RouteFileDigest`.
extension DoctorChecks {
    /// What the running daemon says about one route file.
    public enum DaemonCopy: Sendable, Hashable {
        /// Not compared: the daemon does not run, is too old to say, or the file is shadowed.
        case unchecked
        /// The daemon lists no such file (it has not loaded it since the file appeared).
        case notLoaded
        /// The daemon's row for the file.
        case served(ServedRouteFile)
    }

    /// One route file loads (the daemon's own parser; a syntax error names file, line and column)
    /// and, when the daemon runs, it serves the file as it is on disk: `diskDigest` is the
    /// `RouteFileDigest` of the file now.
    public static func routeFile(_ path: String, error: ConfigError?, diskDigest: UInt64? = nil, daemon: DaemonCopy = .unchecked) -> DoctorCheck {
        let name = "route file \(path)"
        if let error {
            let fix = "edit \(error.file):\(error.line):\(error.column), then deeplinker check \(error.file)"
            let located = "\(error.line):\(error.column): \(error.message)"
            guard case .served(let row) = daemon, row.digest != 0 else {
                if case .unchecked = daemon { return .fail(name, error.message, fix: fix) }
                return .fail(name, "\(error.message); the daemon serves no routes from it (\(located))", fix: fix)
            }
            // The app keeps the routes of its last good file (SPEC §3 Reload).
            return .fail(name, "the daemon serves the previous version of \(path) because this one does not load: \(located)",
                         fix: fix + " (the daemon re-reads it when it changes)")
        }
        switch daemon {
        case .unchecked:
            return .pass(name, "loads")
        case .notLoaded:
            return .fail(name, "loads, but the daemon has not loaded it", fix: "deeplinker reload")
        case .served(let row):
            if let diskDigest, row.digest == diskDigest, row.error.isEmpty {
                return .pass(name, "loads; the daemon serves it as it is on disk")
            }
            let why = row.error.isEmpty ? "it has not re-read the file since it changed" : "its last read failed: \(row.error)"
            return .fail(name, "loads, but the daemon serves an older version (\(why))", fix: "deeplinker reload")
        }
    }

    /// The daemon's view of `path`: its row for the file, `.notLoaded` when it lists the file's
    /// app from another file or not at all; `.unchecked` when `rows` is nil (no daemon, or one too
    /// old to have `RouteFiles`) or the file is not the one its app id takes (`isWinner`).
    public static func daemonCopy(of path: String, appID: String, isWinner: Bool, rows: [ServedRouteFile]?) -> DaemonCopy {
        guard let rows, isWinner else { return .unchecked }
        guard let row = rows.first(where: { $0.path == path && $0.appID == appID }) else { return .notLoaded }
        return .served(row)
    }
}
