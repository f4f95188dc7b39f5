import DeeplinkerProtocol
import DBusKit
import DeeplinkerCLI
import DeeplinkerClient
import DeeplinkerCore
import DeeplinkerTestSupport
import Foundation
import Testing

/// A newcomer's mistakes that still leave every route file loading (issue 36): a broken or unread
/// edit the daemon does not serve, a misspelled app id, a `ready = "focus"` app nothing launches,
/// and fixes that assume a systemd user manager where none runs.
extension DoctorTests {
    @Test func aBrokenEditNamesThePreviousVersionTheDaemonServesAndWhy() async throws {
        try await DaemonFixture.withDaemon(shipped: [app]) { f in
            let setup = try await Setup.make(f, app: app)
            defer { setup.manager.stop() }
            let file = f.configDir + "/\(app).toml"
            let good = try TestFiles.read(file)
            let loaded = try await setup.doctor([app])
            #expect(loaded.checks.contains { $0.name == "route file \(file)" && $0.ok && $0.detail == "loads; the daemon serves it as it is on disk" })

            // A broken edit: the daemon keeps the app's previous routes (Reload answers the error).
            try f.writeRouteFile(app, good + "\nname = \n")
            _ = try await f.failingCall("Reload", [])
            let (status, checks, text) = try await setup.doctor([app])
            #expect(status == 12)
            let bad = failed(checks)
            #expect(bad.map(\.name) == ["route file \(file)"], "\(text.stdout)")
            let detail = bad.first?.detail ?? ""
            #expect(detail.hasPrefix("the daemon serves the previous version of \(file) because this one does not load: "), "\(detail)")
            #expect(detail.contains(#/does not load: \d+:\d+: /#), "line and column: \(detail)")
            #expect(bad.first?.fix.hasPrefix("edit \(file):") == true)

            // Fixed and reloaded: served as on disk again.
            try f.writeRouteFile(app, good)
            _ = try await f.call("Reload")
            #expect(try await setup.doctor([app]).status == 0)
        }
    }

    /// The route file is a symlink into a dotfiles folder: the daemon watches its route directory,
    /// not where the link points, so an edit there stays unread until a reload.
    @Test func aValidEditTheDaemonHasNotReadNamesReload() async throws {
        try await DaemonFixture.withDaemon(startDaemon: false) { f in
            let real = f.root + "/dotfiles/\(app).toml"
            try TestFiles.write(try TestRouteFiles.shipped(app), to: real)
            let file = f.configDir + "/\(app).toml"
            try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: real)
            try await f.startDaemon()
            let setup = try await Setup.make(f, app: app)
            defer { setup.manager.stop() }
            #expect(try await setup.doctor([app]).status == 0)

            try TestFiles.write(try TestFiles.read(real) + "\n# edited\n", to: real)
            let (status, checks, text) = try await setup.doctor([app])
            #expect(status == 12)
            let bad = failed(checks)
            #expect(bad.map(\.name) == ["route file \(file)"], "\(text.stdout)")
            #expect(bad.first?.detail == "loads, but the daemon serves an older version (it has not re-read the file since it changed)")
            #expect(bad.first?.fix == "deeplinker reload")

            // The fix works.
            let reload = try await setup.d.deeplinker(["reload", "--bus-address", f.bus.address])
            #expect(reload.status == 0, "\(reload.stderr)")
            #expect(try await setup.doctor([app]).status == 0)
        }
    }

    @Test func aMisspelledAppIDGetsTheNearestInstalledApp() async throws {
        let typo = "org.gnome.TextEdtor"
        try await DaemonFixture.withDaemon(routeFiles: [typo: TestRouteFiles.minimal(scheme: "texteditor")]) { f in
            let setup = try await Setup.make(f, app: typo)
            defer { setup.manager.stop() }
            try TestFiles.write(
                "[Desktop Entry]\nType=Application\nName=Text Editor\nExec=/usr/bin/gnome-text-editor %U\n",
                to: setup.d.userApplications + "/org.gnome.TextEditor.desktop")
            let (status, checks, text) = try await setup.doctor([typo])
            #expect(status == 0, "a warning does not fail: \(text.stdout)")
            let check = try #require(checks.first { $0.name == "app \(typo)" }, "\(text.stdout)")
            #expect(check.ok && check.warning)
            #expect(check.detail.hasSuffix("; did you mean org.gnome.TextEditor?"), "\(check.detail)")
            let file = f.configDir + "/\(typo).toml"
            #expect(check.fix == "mv \(file) \(f.configDir)/org.gnome.TextEditor.toml, then deeplinker uninstall-desktop \(typo) && deeplinker install-desktop org.gnome.TextEditor")
            #expect(text.lines.contains { $0.hasPrefix("WARN  app \(typo): ") && $0.hasSuffix("-> fix: " + check.fix) }, "\(text.stdout)")
        }
    }

    @Test func aFocusAppThatNothingLaunchesIsWarnedAbout() async throws {
        let focusApp = "com.example.Focused"
        let text = "name = \"Focused\"\nready = \"focus\"\nlaunch = \"none\"\n[targets]\nhome = {}\n[[routes]]\npath = \"/home\"\ntarget = \"home\"\n"
        try await DaemonFixture.withDaemon(routeFiles: [focusApp: text]) { f in
            let setup = try await Setup.make(f, app: focusApp)
            defer { setup.manager.stop() }
            let (_, checks, out) = try await setup.doctor([focusApp])
            let launch = try #require(checks.first { $0.name == "launch \(focusApp)" }, "\(out.stdout)")
            #expect(launch.ok && launch.warning)
            #expect(launch.detail.hasPrefix("ready = \"focus\" with launch = \"none\": the daemon never starts \(focusApp)"))
            #expect(launch.fix == "launch = \"auto\" in \(focusApp).toml (or set ready = \"name\" or \"signal\" in \(focusApp).toml)")
            // Just before the app's focus reporter.
            let names = checks.map(\.name)
            #expect(names.firstIndex(of: "focus \(focusApp)") == names.firstIndex(of: launch.name).map { $0 + 1 }, "\(names)")
        }
    }

    /// No systemd user manager on the bus: no unit runs, so the fixes are D-Bus activation or
    /// running deeplinkerd, never `systemctl --user`.
    @Test func withoutAUserManagerNoFixNamesSystemctl() async throws {
        try await DaemonFixture.withDaemon(shipped: [app]) { f in
            let setup = try await Setup.make(f, app: app)
            setup.manager.stop()
            try await f.client.waitUntilUnowned("org.freedesktop.systemd1")
            try await f.stopDaemon()
            let (status, checks, text) = try await setup.doctor([app])
            #expect(status == 12)
            let daemon = try #require(checks.first)
            #expect(daemon.name == "daemon" && !daemon.ok)
            #expect(daemon.fix.contains("org.freedesktop.DBus.ReloadConfig") && daemon.fix.hasSuffix("or run deeplinkerd"), "\(daemon.fix)")
            for unit in ["unit deeplinkerd.service", "unit deeplinker-focus.service"] {
                let check = try #require(checks.first { $0.name == unit })
                #expect(check.ok && check.detail.hasPrefix("skipped: no systemd user manager on the session bus"))
            }
            #expect(!text.stdout.contains("systemctl"), "\(text.stdout)")
        }
    }
}

/// The new checks as pure functions.
extension DoctorCheckTests {
    static func row(_ digest: UInt64, _ error: String) -> ServedRouteFile {
        ServedRouteFile(path: "/c/a.B.toml", appID: "a.B", digest: digest, error: error)
    }

    @Test func theDaemonsCopyOfARouteFile() {
        let path = "/c/a.B.toml"
        let error = ConfigError(file: path, line: 3, column: 7, message: "TOML syntax error: x")
        let same = DoctorChecks.routeFile(path, error: nil, diskDigest: 42, daemon: .served(Self.row(42, "")))
        #expect(same.ok && same.detail == "loads; the daemon serves it as it is on disk")
        let previous = DoctorChecks.routeFile(path, error: error, diskDigest: 43, daemon: .served(Self.row(42, error.description)))
        #expect(!previous.ok && previous.detail == "the daemon serves the previous version of /c/a.B.toml because this one does not load: 3:7: TOML syntax error: x")
        #expect(previous.fix.hasPrefix("edit /c/a.B.toml:3:7, then deeplinker check /c/a.B.toml"))
        let never = DoctorChecks.routeFile(path, error: error, diskDigest: 43, daemon: .served(Self.row(0, error.description)))
        #expect(!never.ok && never.detail.hasSuffix("the daemon serves no routes from it (3:7: TOML syntax error: x)"))
        let unread = DoctorChecks.routeFile(path, error: nil, diskDigest: 43, daemon: .served(Self.row(42, "")))
        #expect(!unread.ok && unread.detail.hasSuffix("(it has not re-read the file since it changed)") && unread.fix == "deeplinker reload")
        let unknown = DoctorChecks.routeFile(path, error: nil, diskDigest: 43, daemon: .notLoaded)
        #expect(!unknown.ok && unknown.detail == "loads, but the daemon has not loaded it" && unknown.fix == "deeplinker reload")
        #expect(DoctorChecks.routeFile(path, error: nil, diskDigest: 43, daemon: .unchecked).detail == "loads")
        // Which row: only the file its app id takes, and only when the daemon says.
        #expect(DoctorChecks.daemonCopy(of: path, appID: "a.B", isWinner: true, rows: [Self.row(1, "")]) == .served(Self.row(1, "")))
        #expect(DoctorChecks.daemonCopy(of: "/d/a.B.toml", appID: "a.B", isWinner: true, rows: [Self.row(1, "")]) == .notLoaded)
        #expect(DoctorChecks.daemonCopy(of: path, appID: "a.B", isWinner: false, rows: [Self.row(1, "")]) == .unchecked)
        #expect(DoctorChecks.daemonCopy(of: path, appID: "a.B", isWinner: true, rows: nil) == .unchecked)
    }

    @Test func anAppIDThatNamesNoInstalledApp() {
        let none = DoctorChecks.AppPresence(installedEntry: nil, activatable: false, owner: nil)
        let typo = DoctorChecks.appID("org.gnome.TextEdtor", none, candidates: ["org.gnome.TextEditor", "org.gnome.Terminal"], routeFile: "/c/org.gnome.TextEdtor.toml")
        #expect(typo.ok && typo.warning && typo.detail.hasSuffix("did you mean org.gnome.TextEditor?"))
        #expect(typo.fix.hasPrefix("mv /c/org.gnome.TextEdtor.toml /c/org.gnome.TextEditor.toml, "))
        let unknown = DoctorChecks.appID("net.example.New", none, candidates: ["org.gnome.TextEditor"], routeFile: nil)
        #expect(unknown.warning && unknown.fix.hasPrefix("install the app"))
        #expect(DoctorChecks.appID("a.B", .init(installedEntry: nil, activatable: true, owner: nil), candidates: [], routeFile: nil) == .pass("app a.B", "bus-activatable"))
        #expect(DoctorChecks.appID("a.B", .init(installedEntry: nil, activatable: false, owner: ":1.5"), candidates: [], routeFile: nil).detail == "running as :1.5")
        #expect(DoctorChecks.appID("a.B", .init(installedEntry: "/s/a.B.desktop", activatable: false, owner: nil), candidates: [], routeFile: nil).line == "ok    app a.B: installed (/s/a.B.desktop)")
    }

    @Test func aFocusAppMustBeLaunchedIntoAWindow() throws {
        let entry = { (extra: String) in
            LocatedDesktopEntry(path: "/s/a.B.desktop", file: try DesktopFile(parsing: "[Desktop Entry]\nType=Application\nName=B\nExec=/bin/b\n" + extra))
        }
        let check = { (launch: LaunchMode, installed: LocatedDesktopEntry?, activatable: Bool) in
            DoctorChecks.focusLaunch("a.B", launch: launch, installedEntry: installed, activatable: activatable)
        }
        #expect(check(.none, try entry(""), true).warning)
        #expect(!check(.auto, nil, true).warning)
        let nothing = check(.auto, nil, false)
        #expect(nothing.warning && nothing.detail.contains("neither bus-activatable nor has an installed desktop entry"))
        #expect(check(.desktop, nil, true).warning)
        #expect(check(.desktop, try entry("Terminal=true\n"), false).detail.contains("Terminal=true"))
        #expect(check(.auto, try entry("NoDisplay=true\n"), false).detail.contains("NoDisplay=true"))
        #expect(check(.desktop, try entry(""), false) == .pass("launch a.B", "ready = \"focus\", launched from /s/a.B.desktop"))
        #expect(!check(.command(["/bin/b"]), nil, false).warning && !check(.dbus, nil, false).warning)
        #expect(DoctorCheck.warn("x", "y", fix: "z").line == "WARN  x: y -> fix: z")
    }

    @Test func fixesFitHowDeeplinkerWasInstalled() {
        #expect(DoctorInstall.kind(ofExecutable: "/usr/bin/deeplinker") == .package)
        #expect(DoctorInstall.kind(ofExecutable: "/home/u/.local/bin/deeplinker") == .script(prefix: "/home/u/.local"))
        #expect(DoctorInstall.kind(ofExecutable: "/opt/dl/bin/deeplinker") == .script(prefix: "/opt/dl"))
        #expect(DoctorInstall.kind(ofExecutable: "/work/x/.build/debug/deeplinker") == .build)
        let exists: (String) -> Bool = { _ in true }
        let missingUnit = { (install: DoctorInstall) in DoctorChecks.unit("deeplinkerd.service", nil, isExecutable: exists, install: install).fix }
        // A user manager: the unit, where this install put it.
        #expect(missingUnit(.init(kind: .script(prefix: "/home/u/.local"), userManager: true, home: "/home/u"))
            == "scripts/install && systemctl --user enable --now deeplinkerd")
        #expect(missingUnit(.init(kind: .script(prefix: "/opt/dl"), userManager: true, home: "/home/u"))
            == "scripts/install --prefix /opt/dl && systemctl --user enable --now /opt/dl/lib/systemd/user/deeplinkerd.service")
        #expect(missingUnit(.init(kind: .package, userManager: true, home: "/home/u")).hasPrefix("sudo apt install --reinstall deeplinker"))
        // No user manager: no unit to check, and the daemon comes from D-Bus activation or by hand.
        let bare = DoctorInstall(kind: .script(prefix: "/opt/dl"), userManager: false, home: "/home/u")
        #expect(DoctorChecks.unit("deeplinkerd.service", nil, isExecutable: exists, install: bare).ok)
        let daemon = DoctorChecks.daemon(owner: nil, version: nil, activatable: false, busError: nil, install: bare)
        #expect(daemon.fix == "cp /opt/dl/share/dbus-1/services/org.deeplinker.Deeplinker1.service /home/u/.local/share/dbus-1/services/ "
            + "(the bus does not read /opt/dl/share), then dbus-send --session --print-reply --dest=org.freedesktop.DBus / "
            + "org.freedesktop.DBus.ReloadConfig; or run /opt/dl/bin/deeplinkerd")
        let hung = DoctorChecks.daemon(
            owner: ":1.4", version: .failure(DBusError(name: "org.freedesktop.DBus.Error.NoReply", message: "")), activatable: true,
            busError: nil, install: bare)
        #expect(!hung.fix.contains("systemctl") && hung.fix.hasSuffix("(or run /opt/dl/bin/deeplinkerd)"))
        let focus = DoctorChecks.focusReporter(
            "a.B", environment: ["XDG_CURRENT_DESKTOP": "KDE"], gnome: .init(installedAt: nil, enabledInSettings: nil, shellState: nil),
            reporter: nil, daemonRunning: true, connectable: exists, install: bare)
        #expect(focus.fix.hasPrefix("run deeplinker focus-watch in the session"))
    }
}
