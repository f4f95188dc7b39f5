import DeeplinkerClient
import FoundationEssentials

/// The focus reporter of the session's desktop (SPEC §6, §7): which one it is, and whether it is
/// installed, enabled and reporting (the daemon's `FocusReporter` property).
extension DoctorChecks {
    /// The session's desktop, as far as the focus goes.
    public enum FocusDesktop: Sendable, Equatable {
        /// GNOME Shell: the extension `focus@deeplinker.org` reports.
        case gnome
        /// KDE Plasma: focus-watch with its KWin script reports.
        case kde
        /// Anything else: focus-watch's X11 or sway backend, if any.
        case other

        /// From `XDG_CURRENT_DESKTOP` (a colon-separated list, `ubuntu:GNOME`, `KDE`).
        public static func of(environment: [String: String]) -> FocusDesktop {
            let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.uppercased() }
            if desktops.contains("KDE") { return .kde }
            if desktops.contains("GNOME") { return .gnome }
            return .other
        }
    }

    /// What was found of the GNOME Shell extension.
    public struct GnomeExtensionFacts: Sendable, Hashable {
        /// The folder it is installed in (the user's, or one for everyone); nil when not installed.
        public var installedAt: String?
        /// Listed in `org.gnome.shell enabled-extensions` and not in `disabled-extensions`; nil
        /// when the settings could not be read.
        public var enabledInSettings: Bool?
        /// The running shell's state of it (GNOME's ExtensionState: 1 enabled, 2 disabled,
        /// 3 error, 4 out of date, 6 initialized); nil when no shell answers.
        public var shellState: Int?

        public init(installedAt: String?, enabledInSettings: Bool?, shellState: Int?) {
            self.installedAt = installedAt
            self.enabledInSettings = enabledInSettings
            self.shellState = shellState
        }
    }

    /// The reporter is running when the daemon's last `SetFocusedApp` came from this program.
    static func reporting(_ reporter: FocusReporterInfo?, command: String) -> Bool {
        guard let reporter, !reporter.sender.isEmpty else { return false }
        return reporter.command == command
    }

    static func lastReport(_ reporter: FocusReporterInfo?) -> String {
        guard let reporter else { return "the daemon has had no SetFocusedApp call" }
        let what = reporter.appID.isEmpty ? "\"\"" : reporter.appID
        return "the last SetFocusedApp (\(what)) came from \(reporter.command.isEmpty ? "?" : reporter.command) (\(reporter.sender))"
    }

    /// The focus check of a `ready = "focus"` app. `reporter` is the running daemon's
    /// `FocusReporter` (nil: none yet); `daemonRunning` false skips the "reporting" part.
    /// X11 and sway sessions keep ``focusBackend(_:environment:connectable:)``'s check, and then
    /// need focus-watch to be reporting.
    public static func focusReporter(
        _ appID: String, environment: [String: String], gnome: GnomeExtensionFacts, reporter: FocusReporterInfo?,
        daemonRunning: Bool, connectable: (_ socketPath: String) -> Bool, install: DoctorInstall = .unknown
    ) -> DoctorCheck {
        let name = "focus \(appID)"
        let uuid = "focus@deeplinker.org"
        switch FocusDesktop.of(environment: environment) {
        case .gnome:
            guard let folder = gnome.installedAt else {
                return .fail(name, "GNOME Shell: its focus reporter, the extension \(uuid), is not installed",
                             fix: "deeplinker install-gnome-extension, then log out and in")
            }
            switch gnome.shellState {
            case 3?, 4?:
                return .fail(name, "GNOME Shell: the extension \(uuid) at \(folder) failed to run (\(gnome.shellState == 4 ? "out of date for this GNOME Shell" : "error"))",
                             fix: "deeplinker install-gnome-extension (the format of this GNOME Shell), then log out and in")
            case 2?:
                return .fail(name, "GNOME Shell: the extension \(uuid) at \(folder) is disabled", fix: "gnome-extensions enable \(uuid)")
            case nil where gnome.enabledInSettings == false, 6? where gnome.enabledInSettings == false:
                return .fail(name, "GNOME Shell: the extension \(uuid) at \(folder) is not enabled", fix: "gnome-extensions enable \(uuid) (or deeplinker install-gnome-extension)")
            default: break
            }
            let enabled = gnome.shellState == 1 ? "enabled and running" : "enabled"
            guard daemonRunning else {
                return .pass(name, "GNOME Shell extension \(uuid) at \(folder), \(enabled); reporting not checked: the daemon is not running")
            }
            guard reporting(reporter, command: "gnome-shell") else {
                let fix = gnome.shellState == 1
                    ? "gnome-extensions disable \(uuid) && gnome-extensions enable \(uuid)"
                    : "log out and in (GNOME Shell loads a new extension when it starts)"
                return .fail(name, "GNOME Shell extension \(uuid) at \(folder) is \(enabled) but not reporting: \(lastReport(reporter))", fix: fix)
            }
            return .pass(name, "GNOME Shell extension \(uuid) at \(folder), \(enabled), reporting")
        case .kde:
            guard daemonRunning else {
                return .pass(name, "KDE Plasma: focus-watch with its KWin script reports; not checked: the daemon is not running")
            }
            guard reporting(reporter, command: "deeplinker") else {
                return .fail(name, "KDE Plasma: focus-watch (its KWin script) is the reporter and is not reporting: \(lastReport(reporter))",
                             fix: install.startFocusWatch)
            }
            return .pass(name, "KDE Plasma: focus-watch and its KWin script, reporting")
        case .other:
            let backend = focusBackend(appID, environment: environment, connectable: connectable, install: install)
            guard backend.ok, daemonRunning else { return backend }
            guard reporting(reporter, command: "deeplinker") else {
                return .fail(name, "\(backend.detail), but focus-watch is not reporting: \(lastReport(reporter))",
                             fix: install.startFocusWatch)
            }
            return .pass(name, backend.detail + ", focus-watch reporting")
        }
    }
}
