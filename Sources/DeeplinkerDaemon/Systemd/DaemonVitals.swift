import DBusKit
import Foundation
import TaskThreads

/// What `deeplinker status` and the service manager see of the running daemon: start time, state
/// directory, database size, broken route files, and the `STATUS=` line last sent (SPEC §7, §9).
final class DaemonVitals: Sendable {
    let notifier: SystemdNotifier
    /// Microseconds since the epoch when the daemon started.
    let startedAt: Int64
    let stateDirectory: String
    private let state = LockedValue<(broken: [String], status: String?)>(([], nil))

    init(configuration: DaemonConfiguration) {
        notifier = SystemdNotifier(environment: configuration.environment)
        startedAt = Int64(Date().timeIntervalSince1970 * 1_000_000)
        stateDirectory = configuration.stateDirectory
    }

    /// The errors of the route files that failed at the last load, one per file problem.
    var brokenRouteFiles: [String] {
        get { state.withLock { $0.broken } }
        set { state.withLock { $0.broken = newValue } }
    }

    /// Bytes of the database with its write-ahead log.
    var databaseSize: UInt64 {
        ["", "-wal"].reduce(0) { total, suffix in
            var info = stat()
            guard stat(stateDirectory + "/" + SQLiteInvocationStore.fileName + suffix, &info) == 0 else { return total }
            return total + UInt64(info.st_size)
        }
    }

    /// Sends `STATUS=` when the line differs from the one last sent.
    func report(appsLoaded: Int, routesPending: Int) {
        guard notifier.isEnabled else { return }
        let line = "\(appsLoaded) apps loaded, \(routesPending) routes pending"
        let changed = state.withLock { state -> Bool in
            guard state.status != line else { return false }
            state.status = line
            return true
        }
        if changed { notifier.notify("STATUS=" + line) }
    }
}
