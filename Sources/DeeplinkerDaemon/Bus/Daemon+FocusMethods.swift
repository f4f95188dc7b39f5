import DBusKit
import DeeplinkerCore

/// The handler of `SetFocusedApp` (SPEC §3, §6 "Readiness").
extension Daemon {
    /// The app whose window has the input focus, from `deeplinker focus-watch`; `""` for none.
    /// Replies before the route that the focus releases goes out.
    static func setFocusedApp(_ a: In.App, _ c: CallContext, _ core: isolated DaemonCore) throws(DeeplinkerError) -> Reply<Out.None> {
        try core.setFocusedApp(a.appID)
        return .value(Out.None())
    }
}

extension DaemonCore {
    /// `SetFocusedApp`: any well-formed app id (the focus may be on a window of an app with no
    /// route file), or `""`. Only `ready = "focus"` apps change state.
    func setFocusedApp(_ appID: String) throws(DeeplinkerError) {
        guard appID.isEmpty || AppID.isValid(appID) else {
            throw .invalidParameter(name: "app_id", value: appID, reason: "must be an app id (a desktop-file id such as org.example.App) or \"\"")
        }
        let effects = engine.setFocusedApp(appID)
        if !effects.isEmpty { logger.debug("focus on \(appID.isEmpty ? "no known app" : appID)") }
        apply(effects)
    }
}
