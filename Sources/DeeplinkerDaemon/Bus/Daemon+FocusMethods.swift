import DBusKit
import DeeplinkerCore
import Foundation

/// The handler of `SetFocusedApp` (SPEC §3, §6 "Readiness").
extension Daemon {
    /// The app whose window has the input focus, from `deeplinker focus-watch`; `""` for none.
    /// Replies before the route that the focus releases goes out.
    static func setFocusedApp(_ a: In.App, _ c: CallContext, _ core: isolated DaemonCore) throws(DeeplinkerError) -> Reply<Out.None> {
        try core.setFocusedApp(a.appID, reporter: c.sender)
        return .value(Out.None())
    }
}

extension DaemonCore {
    /// `SetFocusedApp`: any well-formed app id (the focus may be on a window of an app with no
    /// route file), or `""`. Only `ready = "focus"` apps change state.
    func setFocusedApp(_ appID: String, reporter: String) throws(DeeplinkerError) {
        guard appID.isEmpty || AppID.isValid(appID) else {
            throw .invalidParameter(name: "app_id", value: appID, reason: "must be an app id (a desktop-file id such as org.example.App) or \"\"")
        }
        if focusReporter != reporter || vitals.focusReport?.command.isEmpty != false { readReporterCommand(reporter) }
        focusReporter = reporter
        vitals.recordFocus(sender: reporter, appID: appID, at: configuration.clock.nowMicroseconds())
        let effects = engine.setFocusedApp(appID)
        if !effects.isEmpty { logger.debug("focus on \(appID.isEmpty ? "no known app" : appID)") }
        apply(effects)
    }
}

extension DaemonCore {
    /// Reads the command name of a new reporter's process for `FocusReporter` (`doctor` names it).
    func readReporterCommand(_ sender: String) {
        let (connection, vitals) = (connection, vitals)
        track { _ in
            guard let pid = try? await connection.processID(of: sender),
                  let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else { return }
            vitals.recordFocusCommand(comm.trimmingCharacters(in: .whitespacesAndNewlines), of: sender)
        }
    }
}

extension DaemonCore {
    /// The connection that reported the focus last left the bus (focus-watch stopped or crashed):
    /// nobody knows the focus any more, so no app keeps the focus it was given.
    func focusReporterLeft(_ sender: String) {
        guard focusReporter == sender else { return }
        focusReporter = nil
        logger.info("the focus reporter \(sender) left the bus; no app has the focus")
        apply(engine.setFocusedApp(""))
    }
}
