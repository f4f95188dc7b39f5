import Spawn
import TaskThreads

/// What ``Launcher/launch(_:mode:opensByDelivery:failed:)`` did, for the daemon to watch whether
/// the launch takes (SPEC §6, "A launch that does not take").
enum LaunchStart: Sendable {
    /// Nothing was started: the app cannot be launched (`none`, or nothing to start; logged once).
    case nothing
    /// An `open` app the bus can start: the route's own `Open` to its well-known name starts it.
    case byDelivery(how: String)
    /// Started as `LaunchedApp` says.
    case started(LaunchedApp)
}

/// One launch in progress: how it was made and, for a process the daemon spawned, what became of it.
final class LaunchedApp: Sendable {
    /// How it was launched, for the log and the route's `detail` ("by D-Bus activation of …").
    let how: String
    private let state = LockedValue<(spawned: Bool, ended: ChildProcess.Termination?)>((false, nil))

    init(how: String) {
        self.how = how
    }

    /// How the spawned process ended; nil while it runs or when nothing was spawned.
    var termination: ChildProcess.Termination? { state.withLock { $0.ended } }

    /// Whether a process the daemon spawned still runs (an app with no bus name of its own runs
    /// while its process does).
    var processRuns: Bool { state.withLock { $0.spawned && $0.ended == nil } }

    /// The process was spawned (its end may already have been reported).
    func spawned() {
        state.withLock { $0.spawned = true }
    }

    func ended(_ termination: ChildProcess.Termination) {
        state.withLock { $0.ended = termination }
    }
}
