import DeeplinkerProtocol
import DBusKit
import DeeplinkerRouteFiles
import FoundationEssentials
import Glibc
import TaskThreads

/// What `deeplinker status` and the service manager see of the running daemon: start time, state
/// directory, database size, broken route files, and the `STATUS=` line last sent (SPEC §7, §9).
final class DaemonVitals: Sendable {
    let notifier: SystemdNotifier
    /// Microseconds since the epoch when the daemon started.
    let startedAt: Int64
    let stateDirectory: String
    /// The route-file search path the daemon loads from (`RouteDirectories`).
    let routeDirectories: [String]
    private let state = LockedValue<(broken: [String], status: String?)>(([], nil))
    private let focus = LockedValue<FocusReport?>(nil)
    private let served = LockedValue<[ServedRouteFile]>([])

    init(configuration: DaemonConfiguration) {
        notifier = SystemdNotifier(environment: configuration.environment)
        startedAt = Int64(Date().timeIntervalSince1970 * 1_000_000)
        stateDirectory = configuration.stateDirectory
        routeDirectories = configuration.routeDirectories
    }

    /// Who called `SetFocusedApp` last, with what and when (`FocusReporter`); nil until someone does.
    var focusReport: FocusReport? {
        get { focus.withLock { $0 } }
        set { focus.withLock { $0 = newValue } }
    }

    /// Records a report; the command name is kept while the same connection reports.
    func recordFocus(sender: String, appID: String, at time: Int64) {
        focus.withLock { report in
            let command = report?.sender == sender ? report?.command ?? "" : ""
            report = FocusReport(sender: sender, command: command, appID: appID, reportedAt: time)
        }
    }

    /// Sets the reporter's command name once its process was read, if it still reports.
    func recordFocusCommand(_ command: String, of sender: String) {
        focus.withLock { report in
            if report?.sender == sender { report?.command = command }
        }
    }

    /// The errors of the route files that failed at the last load, one per file problem.
    var brokenRouteFiles: [String] {
        get { state.withLock { $0.broken } }
        set { state.withLock { $0.broken = newValue } }
    }

    /// What each app's route file serves since the last load (`RouteFiles`): path, digest of the
    /// bytes its routes came from, the last read's error.
    var routeFiles: [ServedRouteFile] {
        get { served.withLock { $0 } }
        set { served.withLock { $0 = newValue } }
    }

    /// The `RouteFiles` property: `a(ssts)` = (path, app_id, digest, error).
    static func routeFilesValue(_ files: [ServedRouteFile]) -> DBusValue {
        .array(elementSignature: "(ssts)", files.map { .structure([.string($0.path), .string($0.appID), .uint64($0.digest), .string($0.error)]) })
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

/// The last `SetFocusedApp` call: the `FocusReporter` property (SPEC §3).
struct FocusReport: Sendable, Equatable {
    /// The caller's unique name.
    var sender: String
    /// Its process's command name (`/proc/PID/comm`); `""` until read, or when it cannot be.
    var command: String
    var appID: String
    /// Microseconds since the epoch.
    var reportedAt: Int64

    /// The property's value; empty when nobody reported yet.
    static func value(_ report: FocusReport?) -> DBusValue {
        .variantDictionary(report.map {
            ["sender": .string($0.sender), "command": .string($0.command), "app-id": .string($0.appID), "reported-at": .int64($0.reportedAt)]
        } ?? [:])
    }
}
