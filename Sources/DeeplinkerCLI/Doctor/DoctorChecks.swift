import DBusKit
import DeeplinkerCore
import FoundationEssentials

/// The checks of `deeplinker doctor` (SPEC §7), each a pure function of what was read (texts,
/// listings, tool outputs), so that every breakage can be tested on fixtures. `DoctorProbe` reads
/// the machine; nothing here touches the disk, the bus or the environment.
public enum DoctorChecks {
    public static let daemonUnit = "deeplinkerd.service"
    public static let focusUnit = "deeplinker-focus.service"

    // MARK: Daemon

    /// The daemon answers, or the bus can start it.
    /// `version` is the running daemon's answer to a property read: its `Version`, or the error;
    /// `install` makes the fixes fit how Deeplinker was installed.
    public static func daemon(
        owner: String?, version: Result<String, DBusError>?, activatable: Bool, busError: String?, install: DoctorInstall = .unknown
    ) -> DoctorCheck {
        if let busError {
            return .fail("daemon", "no session bus: \(busError)", fix: "run inside a desktop session, or set DBUS_SESSION_BUS_ADDRESS")
        }
        if let owner {
            switch version {
            case .success(let version)?: return .pass("daemon", "running as \(owner), version \(version)")
            case .failure(let error)?:
                return .fail("daemon", "\(owner) owns the name but does not answer (\(error.name): \(error.message))",
                             fix: install.restartDaemon)
            case nil: return .pass("daemon", "running as \(owner)")
            }
        }
        if activatable { return .pass("daemon", "not running; the bus starts it on the first call (activatable)") }
        return .fail(
            "daemon", "not running and not bus-activatable (no org.deeplinker.Deeplinker1.service on the bus's service path)",
            fix: install.startDaemon)
    }

    // MARK: Units

    /// A user unit file as found on the unit search path.
    public struct UnitFile: Sendable, Hashable {
        public var path: String
        public var text: String
        /// `*.wants` links to it in the configuration directories (`default.target.wants/NAME`).
        public var wantedBy: [String]

        public init(path: String, text: String, wantedBy: [String]) {
            self.path = path
            self.text = text
            self.wantedBy = wantedBy
        }
    }

    /// The unit is installed, its `ExecStart` program exists, and it is enabled; skipped without a
    /// systemd user manager (then D-Bus activation starts the daemon).
    public static func unit(_ name: String, _ file: UnitFile?, isExecutable: (String) -> Bool, install: DoctorInstall = .unknown) -> DoctorCheck {
        let check = "unit \(name)"
        let base = name.hasSuffix(".service") ? String(name.dropLast(".service".count)) : name
        guard install.userManager else {
            let instead = name == focusUnit ? "run deeplinker focus-watch in the session instead" : "the bus starts deeplinkerd from its D-Bus service file"
            return .pass(check, "skipped: no systemd user manager on the session bus, so no unit runs (\(instead))")
        }
        let enable = install.enable(base)
        guard let file else {
            return .fail(check, "not installed on the user unit path", fix: install.installUnit(base))
        }
        let lines = file.text.split(whereSeparator: \.isNewline)
        if let index = lines.firstIndex(where: { $0.hasPrefix("ExecStart=") }) {
            let command = lines[index].dropFirst("ExecStart=".count).trimmed
            // ExecStart= prefixes (-, @, :, +, !) are not part of the path.
            let program = String((command.split(separator: " ").first ?? "").drop(while: { "-@:+!".contains($0) }))
            if !program.hasPrefix("/") || !isExecutable(program) {
                return .fail(check, "ExecStart names \(program.isEmpty ? "nothing" : program), which is not an executable absolute path",
                             fix: "\(install.kind == .package ? "sudo apt install --reinstall deeplinker" : install.installScript) (or edit \(file.path):\(index + 1))")
            }
        }
        guard !file.wantedBy.isEmpty else {
            return .fail(check, "installed at \(file.path) but not enabled", fix: enable)
        }
        return .pass(check, "installed at \(file.path), enabled (\(file.wantedBy.joined(separator: ", ")))")
    }

    // MARK: The user manager's environment

    /// `DISPLAY` or `WAYLAND_DISPLAY` is in the user manager's environment. `nil` environment: no
    /// user manager answered, `reason` says why (then launched apps get the bus's environment).
    public static func managerEnvironment(_ environment: ManagerEnvironment?, reason: String) -> DoctorCheck {
        let name = "user manager environment"
        guard let environment else {
            return .pass(name, "skipped: \(reason)")
        }
        let found = ["DISPLAY", "WAYLAND_DISPLAY"].compactMap { key in environment.value(key).map { "\(key)=\($0)" } }
        guard !found.isEmpty else {
            return .fail(
                name, "neither DISPLAY nor WAYLAND_DISPLAY is set: apps it launches and the focus watcher find no display",
                fix: "systemctl --user import-environment DISPLAY WAYLAND_DISPLAY (and have the session run dbus-update-activation-environment --systemd --all at login)")
        }
        return .pass(name, found.joined(separator: " "))
    }

    // MARK: Route files

    /// When no route file was found at all (`appID` nil), or none for the app asked about.
    public static func noRouteFiles(searched: [String], appID: String? = nil) -> DoctorCheck {
        let file = (appID ?? "<app-id>") + ".toml"
        let target = searched.first.map { $0 + "/" + file } ?? file
        let what = appID == nil ? "no route file" : "no \(file)"
        return .fail(appID.map { "route file \($0).toml" } ?? "route files", "\(what) in \(searched.joined(separator: ", "))",
                     fix: "write \(target) (the format: SPEC §5), then deeplinker check \(target)")
    }

    // MARK: Scheme handlers

    /// What the handler entry looks like on disk.
    public struct HandlerEntry: Sendable, Hashable {
        public var path: String
        /// nil when the file is missing.
        public var text: String?
        /// `desktop-file-validate`'s complaints ("" when clean; nil when the tool is missing).
        public var validation: String?

        public init(path: String, text: String?, validation: String?) {
            self.path = path
            self.text = text
            self.validation = validation
        }
    }

    /// `gio mime` and `xdg-mime query default` both name the handler entry, which exists, validates
    /// and whose `Exec` program exists.
    public static func scheme(
        _ scheme: String, appID: String, gioDefault: String?, xdgDefault: String?, handler: HandlerEntry,
        isExecutable: (String) -> Bool
    ) -> DoctorCheck {
        let name = "scheme \(scheme)"
        let install = "deeplinker install-desktop \(appID)"
        let expected = DesktopEntry.handlerFileName(appID: appID)
        guard let text = handler.text else {
            return .fail(name, "the handler entry \(handler.path) is missing", fix: install)
        }
        let file: DesktopFile
        do { file = try DesktopFile(parsing: text) } catch {
            return .fail(name, "\(handler.path) does not parse: \(error)", fix: install)
        }
        if let validation = handler.validation, !validation.isEmpty {
            let first = validation.split(whereSeparator: \.isNewline).first.map(String.init) ?? validation
            return .fail(name, "desktop-file-validate: \(first)", fix: install)
        }
        guard let exec = file.value("Exec") else {
            return .fail(name, "\(handler.path) has no Exec", fix: install)
        }
        let program = (try? DesktopExec.argv(exec, context: .init()).first) ?? ""
        guard program.hasPrefix("/"), isExecutable(program) else {
            return .fail(name, "the handler's Exec program \(program.isEmpty ? "(none)" : program) does not exist or is not executable", fix: install)
        }
        if xdgDefault != expected {
            let other = (xdgDefault ?? "").isEmpty ? "no default handler" : xdgDefault!
            return .fail(name, "xdg-mime query default x-scheme-handler/\(scheme) names \(other), not \(expected)", fix: install)
        }
        if gioDefault != expected {
            let other = (gioDefault ?? "").isEmpty ? "no default handler" : gioDefault!
            return .fail(name, "gio mime x-scheme-handler/\(scheme) names \(other), not \(expected)", fix: install)
        }
        return .pass(name, "\(expected) is the default (gio, xdg-mime), validates, Exec \(program)")
    }

    /// The handler `gio mime x-scheme-handler/S` reports as default, from its output (nil: none).
    public static func gioDefault(fromOutput output: String) -> String? {
        for line in output.split(whereSeparator: \.isNewline) where line.hasPrefix("Default application for") {
            guard let colon = line.ranges(of: ": ").last else { continue }
            let id = line[colon.upperBound...].trimmed
            return id.isEmpty ? nil : id
        }
        return nil
    }

    // MARK: The app's entry

    /// What launchers would see for the app: the entry Deeplinker wrote in the user's data home
    /// (nil when none) and the app's installed entry on `$XDG_DATA_DIRS` (nil when none).
    public struct AppEntries: Sendable, Hashable {
        public var written: LocatedDesktopEntry?
        public var writtenModified: Date?
        public var installed: LocatedDesktopEntry?
        public var installedModified: Date?

        public init(written: LocatedDesktopEntry?, writtenModified: Date?, installed: LocatedDesktopEntry?, installedModified: Date?) {
            self.written = written
            self.writtenModified = writtenModified
            self.installed = installed
            self.installedModified = installedModified
        }
    }

    /// The app's entry and Deeplinker's override agree: there is one, it points at the installed
    /// entry launchers would otherwise use, it is not older than that entry, and its Exec runs
    /// `deeplinker launch ID` from a program that exists.
    public static func appEntry(_ appID: String, _ entries: AppEntries, isExecutable: (String) -> Bool) -> DoctorCheck {
        let name = "entry \(appID)"
        let install = "deeplinker install-desktop \(appID)"
        guard let written = entries.written else {
            if let installed = entries.installed {
                return .fail(name, "launchers use \(installed.path) directly: icon launches and quick actions bypass Deeplinker", fix: install)
            }
            return .fail(name, "no desktop entry for the app", fix: install)
        }
        let source = written.file.value(DesktopEntryLocator.sourceKey)
        switch (source, entries.installed) {
        case (let source?, let installed?) where source != installed.path:
            return .fail(name, "\(written.path) overrides \(source), but launchers find \(installed.path)", fix: install)
        case (let source?, nil):
            return .fail(name, "\(written.path) overrides \(source), which is gone", fix: "deeplinker uninstall-desktop \(appID) && \(install)")
        case (nil, let installed?):
            return .fail(name, "\(written.path) is a minimal entry but the app now has \(installed.path)", fix: install)
        default: break
        }
        if let writtenModified = entries.writtenModified, let installedModified = entries.installedModified, installedModified > writtenModified {
            return .fail(name, "\(entries.installed!.path) changed after \(written.path) was written", fix: "deeplinker reload (or \(install))")
        }
        let argv = written.file.value("Exec").flatMap { try? DesktopExec.argv($0, context: .init()) } ?? []
        guard argv.count >= 3, argv[1] == "launch", argv[2] == appID else {
            return .fail(name, "\(written.path) Exec is not `deeplinker launch \(appID)`", fix: install)
        }
        guard argv[0].hasPrefix("/"), isExecutable(argv[0]) else {
            return .fail(name, "\(written.path) Exec names \(argv[0]), which does not exist", fix: install)
        }
        let over = entries.installed.map { "override of \($0.path)" } ?? "minimal entry"
        return .pass(name, "\(written.path) (\(over)) launches through \(argv[0])")
    }

    // MARK: Focus

    /// The backend `focus-watch --backend auto` would use, and whether it can connect.
    public static func focusBackend(
        _ appID: String, environment: [String: String], connectable: (_ socketPath: String) -> Bool, install: DoctorInstall = .unknown
    ) -> DoctorCheck {
        let name = "focus \(appID)"
        let set = { (key: String) -> String? in
            guard let value = environment[key], !value.isEmpty else { return nil }
            return value
        }
        if let sway = set("SWAYSOCK") {
            return connectable(sway)
                ? .pass(name, "sway IPC at \(sway)")
                : .fail(name, "SWAYSOCK=\(sway) but nothing listens there", fix: "start sway, or " + install.importEnvironment(["SWAYSOCK"]))
        }
        if let wayland = set("WAYLAND_DISPLAY") {
            return .fail(
                name, "WAYLAND_DISPLAY=\(wayland) without SWAYSOCK: this compositor (GNOME, KDE on Wayland) has no focus backend",
                fix: "set ready = \"name\" or \"signal\" in \(appID).toml, or use an X11 session or sway")
        }
        if let display = set("DISPLAY") {
            let socket = x11Socket(display)
            if let socket, !connectable(socket) {
                return .fail(name, "DISPLAY=\(display) but nothing listens on \(socket)", fix: "start the X server, or " + install.importEnvironment(["DISPLAY"]))
            }
            return .pass(name, "X11 on DISPLAY=\(display)")
        }
        return .fail(
            name, "neither SWAYSOCK, WAYLAND_DISPLAY nor DISPLAY is set: no desktop session to follow",
            fix: install.importEnvironment(["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK"]))
    }

    /// The unix socket of a local X display (`:0` → `/tmp/.X11-unix/X0`); nil for remote displays.
    public static func x11Socket(_ display: String) -> String? {
        guard display.hasPrefix(":") || display.hasPrefix("unix:") else { return nil }
        let afterColon = display.split(separator: ":", omittingEmptySubsequences: false).last ?? ""
        let number = afterColon.split(separator: ".").first.map(String.init) ?? ""
        guard !number.isEmpty, number.allSatisfy(\.isNumber) else { return nil }
        return "/tmp/.X11-unix/X\(number)"
    }

    // MARK: Browser hosts

    /// A native messaging host manifest of one browser.
    public struct HostManifest: Sendable, Hashable {
        public var browser: String
        public var path: String
        /// nil when the file is missing.
        public var text: String?
        /// A manifest for every user (the Debian package's), not one `install-browser` wrote.
        public var systemWide: Bool

        public init(browser: String, path: String, text: String?, systemWide: Bool = false) {
            self.browser = browser
            self.path = path
            self.text = text
            self.systemWide = systemWide
        }

        /// `chromium`, or `chromium (system-wide)`.
        var label: String { systemWide ? browser + " (system-wide)" : browser }
        /// What puts this manifest right.
        var fix: String {
            systemWide
                ? "sudo apt install --reinstall deeplinker (or deeplinker install-browser --browser \(browser) for a copy of your own)"
                : "deeplinker install-browser --browser \(browser)"
        }
    }

    /// At least one browser's host manifest is installed (by `install-browser`, or system-wide by
    /// the package), and every installed one names a program that exists. Skipped when no app
    /// claims an https domain.
    public static func browserHosts(domainApps: [String], manifests: [HostManifest], isExecutable: (String) -> Bool) -> DoctorCheck {
        let name = "browser hosts"
        guard !domainApps.isEmpty else { return .pass(name, "no app claims https domains") }
        let installed = manifests.filter { $0.text != nil }
        guard !installed.isEmpty else {
            return .fail(name, "no native messaging host manifest (\(manifests.map(\.path).joined(separator: ", ")))", fix: "deeplinker install-browser")
        }
        struct Manifest: Decodable { var path: String? }
        for manifest in installed {
            guard let object = try? JSONDecoder().decode(Manifest.self, from: Data(manifest.text!.utf8)) else {
                return .fail(name, "\(manifest.path) is not a JSON object", fix: manifest.fix)
            }
            let program = object.path ?? ""
            guard program.hasPrefix("/"), isExecutable(program) else {
                return .fail(name, "\(manifest.path) names \(program.isEmpty ? "no path" : program), which does not exist",
                             fix: manifest.fix)
            }
        }
        return .pass(name, installed.map(\.label).joined(separator: ", "))
    }

    // MARK: Domains

    /// One row of `GetLinkClaims`.
    public struct LinkClaim: Sendable, Hashable {
        public var appID: String
        public var domain: String
        public var verdict: String
        public var detail: String
        /// µs since the epoch; 0 = never checked.
        public var checkedAt: Int64

        public init(appID: String, domain: String, verdict: String, detail: String, checkedAt: Int64) {
            self.appID = appID
            self.domain = domain
            self.verdict = verdict
            self.detail = detail
            self.checkedAt = checkedAt
        }
    }

    /// A domain's verdict and its age: verified and approved pass; never checked, not listed or
    /// unreachable fails with `deeplinker verify ID`.
    public static func domain(_ claim: LinkClaim, now: Int64) -> DoctorCheck {
        let name = "domain \(claim.appID) \(claim.domain)"
        let verify = "deeplinker verify \(claim.appID)"
        guard claim.checkedAt > 0 else {
            return .fail(name, "never verified: the browser extension does not hand its links over", fix: verify)
        }
        let ago = "\(ageText(seconds: max(0, now - claim.checkedAt) / 1_000_000)) ago"
        let age = "checked \(ago)"
        let detail = claim.detail.isEmpty ? "" : " (\(claim.detail))"
        if claim.verdict == "verified" { return .pass(name, "verified, \(age)") }
        if claim.verdict == "approved" { return approvedDomain(name, claim, recorded: ago) }
        return .fail(name, "\(claim.verdict)\(detail), \(age)", fix: "publish https://\(claim.domain.hasPrefix("*.") ? String(claim.domain.dropFirst(2)) : claim.domain)/.well-known/deeplinker-app-links.json listing \(claim.appID), then \(verify)")
    }

    /// A domain the user approved (`approve-domain`): its links are handed over though the site
    /// does not list the app, so it is reported as such, not as a failure.
    static func approvedDomain(_ name: String, _ claim: LinkClaim, recorded ago: String) -> DoctorCheck {
        .pass(name, "approved by the user, recorded \(ago) (the site is not checked; `deeplinker revoke-domain \(claim.appID) \(claim.domain)` takes it back)")
    }

    /// When the daemon cannot list claims (not running, or a daemon without `GetLinkClaims`).
    public static func domainsSkipped(_ reason: String) -> DoctorCheck {
        .pass("domains", "skipped: \(reason)")
    }

    /// `3 s`, `5 min`, `2 h`, `4 d`.
    public static func ageText(seconds: Int64) -> String {
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3_600 { return "\(seconds / 60) min" }
        if seconds < 86_400 { return "\(seconds / 3_600) h" }
        return "\(seconds / 86_400) d"
    }
}
