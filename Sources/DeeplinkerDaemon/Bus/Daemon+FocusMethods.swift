import DBusKit
import DeeplinkerCore
import FoundationEssentials
import Glibc

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
        focusReporter = reporter
        vitals.recordFocus(sender: reporter, appID: appID, at: configuration.clock.nowMicroseconds())
        if vitals.focusReport?.command.isEmpty == true, let pid = processIDs[reporter] {
            vitals.recordFocusCommand(Self.commandName(ofProcess: pid), of: reporter)
        }
        let effects = engine.setFocusedApp(appID)
        if !effects.isEmpty { logger.debug("focus on \(appID.isEmpty ? "no known app" : appID)") }
        apply(effects)
    }
}

extension DaemonCore {
    /// The command name of a process (`/proc/PID/comm`, 16 bytes at most), `""` when it cannot be
    /// read; read once per new reporter, for `FocusReporter` (`doctor` names the reporter by it).
    nonisolated static func commandName(ofProcess pid: UInt32) -> String {
        guard let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else { return "" }
        guard let last = comm.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(comm[...last].drop(while: \.isWhitespace))
    }
}

extension DaemonCore {
    /// The connection that reported the focus last left the bus (focus-watch stopped or crashed):
    /// nobody knows the focus any more, so no app keeps the focus it was given.
    func focusReporterLeft(_ sender: String) {
        guard focusReporter == sender else { return }
        focusReporter = nil
        vitals.focusReport = nil
        logger.info("the focus reporter \(sender) left the bus; no app has the focus")
        apply(engine.setFocusedApp(""))
    }
}
