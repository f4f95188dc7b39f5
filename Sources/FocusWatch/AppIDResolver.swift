import FoundationEssentials

/// Maps the focused window to an app id (SPEC §6 "Readiness"), in this order: the toolkit's
/// application id (`_GTK_APPLICATION_ID`, the Wayland `app_id`); the window's process and its
/// systemd scope `app-<launcher>-<app-id>-….scope`; a desktop entry whose `StartupWMClass` equals
/// its `WM_CLASS`. A window of no known app is `""`.
public final class AppIDResolver: @unchecked Sendable {
    let environment: [String: String]
    let procRoot: String
    private var index: WMClassIndex?

    public init(environment: [String: String], procRoot: String = "/proc") {
        self.environment = environment
        self.procRoot = procRoot
    }

    /// Called from the backend's one thread only.
    public func appID(for window: FocusedWindow?) -> String {
        guard let window else { return "" }
        if let id = window.applicationID, AppIDRules.isValid(id) { return id }
        if let pid = window.pid, pid > 0,
           let cgroup = try? String(contentsOfFile: "\(procRoot)/\(pid)/cgroup", encoding: .utf8),
           let id = ScopeName.appID(inCgroup: cgroup) {
            return id
        }
        guard !window.wmClass.isEmpty else { return "" }
        if let index, let id = index.appID(forWMClass: window.wmClass) { return id }
        // First use, or an app installed since the index was built: read the entries again.
        let fresh = WMClassIndex(environment: environment)
        index = fresh
        return fresh.appID(forWMClass: window.wmClass) ?? ""
    }
}
