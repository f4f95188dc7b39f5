import DeeplinkerCore
import FoundationEssentials

/// A newcomer's mistakes in a route file that still loads (SPEC §7): an app id that names no
/// installed app (a typo in the file name), and `ready = "focus"` with a launch that cannot bring
/// up a window. Both are warnings: the app may simply not be installed yet.
extension DoctorChecks {
    /// How the app id is known on this machine; all false/nil means it names no installed app.
    public struct AppPresence: Sendable, Hashable {
        /// The app's own installed `<app-id>.desktop` (never one Deeplinker wrote).
        public var installedEntry: String?
        /// In the bus's `ListActivatableNames`.
        public var activatable: Bool
        /// The unique name that owns the app id on the bus now.
        public var owner: String?

        public init(installedEntry: String?, activatable: Bool, owner: String?) {
            self.installedEntry = installedEntry
            self.activatable = activatable
            self.owner = owner
        }
    }

    /// The app id names an installed desktop entry, an activatable bus name or a running app; else
    /// a warning with the nearest installed ids (`candidates`: installed entry ids and activatable
    /// names) as "did you mean".
    public static func appID(_ appID: String, _ presence: AppPresence, candidates: [String], routeFile: String?) -> DoctorCheck {
        let name = "app \(appID)"
        if let entry = presence.installedEntry { return .pass(name, "installed (\(entry))") }
        if presence.activatable { return .pass(name, "bus-activatable") }
        if let owner = presence.owner { return .pass(name, "running as \(owner)") }
        let nothing = "no installed desktop entry \(appID).desktop, no activatable bus name and no running app is \(appID)"
        let suggestions = AppIDSuggestions.nearest(to: appID, among: candidates)
        guard let best = suggestions.first else {
            return .warn(name, nothing + ": links wait until it runs",
                         fix: "install the app, or rename the route file after the app's desktop entry id (its .desktop file name)")
        }
        let file = routeFile ?? "\(appID).toml"
        let renamed = (file.lastIndex(of: "/").map { String(file[...$0]) } ?? "") + best + ".toml"
        let mean = suggestions.joined(separator: ", ")
        return .warn(name, "\(nothing); did you mean \(mean)?",
                     fix: "mv \(file) \(renamed), then deeplinker uninstall-desktop \(appID) && deeplinker install-desktop \(best)")
    }

    /// A `ready = "focus"` app becomes active when its window takes the focus, so its launch must
    /// be able to bring up a window: not `launch = "none"`, and for `auto`/`desktop` an installed
    /// entry (or, for `auto`, an activatable name) that is not `NoDisplay=true` (a helper with no
    /// launcher of its own) or `Terminal=true` (the focused window is the terminal's). `dbus` and a
    /// command cannot be told from here and pass.
    public static func focusLaunch(_ appID: String, launch: LaunchMode, installedEntry: LocatedDesktopEntry?, activatable: Bool) -> DoctorCheck {
        let name = "launch \(appID)"
        let file = "\(appID).toml"
        let signal = "set ready = \"name\" or \"signal\" in \(file)"
        func entryProblem(_ entry: LocatedDesktopEntry) -> DoctorCheck? {
            if entry.file.value("Terminal") == "true" {
                return .warn(name, "ready = \"focus\" but \(entry.path) runs in a terminal (Terminal=true): the focused window is the terminal's, never \(appID)'s",
                             fix: signal)
            }
            if entry.file.value("NoDisplay") == "true" {
                return .warn(name, "ready = \"focus\" but \(entry.path) is NoDisplay=true (a helper, which may show no window of its own)",
                             fix: "launch = [\"the program that shows its window\", ...] or \(signal)")
            }
            return nil
        }
        switch launch {
        case .none:
            return .warn(name, "ready = \"focus\" with launch = \"none\": the daemon never starts \(appID), so a link waits until you start it and focus its window",
                         fix: "launch = \"auto\" in \(file) (or \(signal))")
        case .command:
            return .pass(name, "ready = \"focus\", launched by its command")
        case .dbus:
            return .pass(name, "ready = \"focus\", launched by D-Bus activation")
        case .auto where activatable:
            return .pass(name, "ready = \"focus\", launched by D-Bus activation")
        case .auto, .desktop:
            guard let entry = installedEntry else {
                let how = launch == .auto ? "neither bus-activatable nor has an installed desktop entry" : "has no installed desktop entry \(appID).desktop"
                return .warn(name, "ready = \"focus\" but \(appID) \(how): the daemon cannot start it, so no window comes up and a link waits",
                             fix: "install the app, or launch = [\"program\", ...] in \(file)")
            }
            return entryProblem(entry) ?? .pass(name, "ready = \"focus\", launched from \(entry.path)")
        }
    }

    /// A route waiting on an app whose launch did not take (SPEC §6): a failure naming how it was
    /// launched and what became of it. Nil for a route that simply waits for its app.
    public static func waitingRoute(_ appID: String, _ waiting: (target: String, detail: String)) -> DoctorCheck? {
        guard let reason = LaunchFailure.reason(inDetail: waiting.detail) else { return nil }
        return .fail("pending \(appID)", "route \(waiting.target) is waiting on an app that did not start: \(reason)",
                     fix: "check the app's launch setting in \(appID).toml and the daemon's log; the next link launches it again, or start \(appID) yourself")
    }
}
