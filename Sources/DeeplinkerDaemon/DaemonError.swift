/// Why the daemon could not start.
public enum DaemonError: Error, CustomStringConvertible {
    case nameTaken(name: String, owner: String?)
    case busUnavailable(String)
    case storage(String)
    /// The bus connection went away while serving (the bus stopped or dropped us).
    case busLost
    /// A sync of the state database failed (SPEC §9): nothing more is acknowledged; a restart
    /// recovers what is on disk.
    case syncFailed(String)

    public var description: String {
        switch self {
        case .nameTaken(let name, let owner):
            "the bus name \(name) is already owned\(owner.map { " by \($0)" } ?? "") — is another deeplinkerd running?"
        case .busUnavailable(let why): "cannot connect to the bus: \(why)"
        case .storage(let why): "cannot open the state database: \(why)"
        case .busLost: "lost the connection to the bus"
        case .syncFailed(let why): "the state database could not be synced, stopping: \(why)"
        }
    }
}
