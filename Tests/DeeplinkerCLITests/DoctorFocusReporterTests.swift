import DBusKit
import DeeplinkerCLI
import DeeplinkerClient
import DeeplinkerTestSupport
import Foundation
import Testing

/// doctor's focus reporter verdicts per desktop (SPEC §6, §7), the program a browser host wrapper
/// starts, and the route files of the running daemon (its `RouteDirectories`).
@Suite struct DoctorFocusReporterTests {
    static let app = "org.example.Focused"
    static func always(_: String) -> Bool { true }
    static let gnome = ["XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "WAYLAND_DISPLAY": "wayland-0"]
    static let folder = "/home/u/.local/share/gnome-shell/extensions/focus@deeplinker.org"
    static func reporter(_ command: String, _ app: String = app) -> FocusReporterInfo {
        FocusReporterInfo(sender: ":1.7", command: command, appID: app, reportedAtMicroseconds: 1)
    }

    static func check(
        _ environment: [String: String], installed: String? = folder, enabled: Bool? = true, state: Int? = 1,
        reporter: FocusReporterInfo? = nil, daemonRunning: Bool = true
    ) -> DoctorCheck {
        DoctorChecks.focusReporter(
            app, environment: environment, gnome: .init(installedAt: installed, enabledInSettings: enabled, shellState: state),
            reporter: reporter, daemonRunning: daemonRunning, connectable: Self.always)
    }

    @Test func gnomeExtensionNotInstalled() {
        let c = Self.check(Self.gnome, installed: nil, enabled: nil, state: nil)
        #expect(!c.ok && c.detail.contains("extension focus@deeplinker.org, is not installed"))
        #expect(c.fix == "deeplinker install-gnome-extension, then log out and in")
    }

    @Test func gnomeExtensionInstalledButNotEnabled() {
        let c = Self.check(Self.gnome, enabled: false, state: nil)
        #expect(!c.ok && c.detail.hasSuffix("is not enabled") && c.fix.hasPrefix("gnome-extensions enable focus@deeplinker.org"))
        let disabled = Self.check(Self.gnome, enabled: false, state: 2)
        #expect(!disabled.ok && disabled.detail.hasSuffix("is disabled"))
    }

    @Test func gnomeExtensionThatFailedToRun() {
        let c = Self.check(Self.gnome, state: 4)
        #expect(!c.ok && c.detail.contains("out of date") && c.fix.hasPrefix("deeplinker install-gnome-extension"))
    }

    @Test func gnomeExtensionEnabledButNotReporting() {
        let none = Self.check(Self.gnome, reporter: nil)
        #expect(!none.ok && none.detail.contains("not reporting: the daemon has had no SetFocusedApp call"))
        // Installed after the shell started: it says to log in again.
        let notLoaded = Self.check(Self.gnome, state: nil, reporter: Self.reporter("deeplinker"))
        #expect(!notLoaded.ok && notLoaded.detail.contains("came from deeplinker") && notLoaded.fix.hasPrefix("log out and in"))
    }

    @Test func gnomeExtensionReporting() {
        let c = Self.check(Self.gnome, reporter: Self.reporter("gnome-shell"))
        #expect(c.ok && c.detail == "GNOME Shell extension focus@deeplinker.org at \(Self.folder), enabled and running, reporting")
        let stopped = Self.check(Self.gnome, reporter: nil, daemonRunning: false)
        #expect(stopped.ok && stopped.detail.hasSuffix("reporting not checked: the daemon is not running"))
    }

    @Test func kdeNeedsFocusWatchReporting() {
        let kde = ["XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0"]
        let missing = Self.check(kde, installed: nil, reporter: nil)
        #expect(!missing.ok && missing.detail.hasPrefix("KDE Plasma: focus-watch (its KWin script) is the reporter and is not reporting"))
        #expect(missing.fix.hasPrefix("systemctl --user enable --now deeplinker-focus"))
        #expect(Self.check(kde, installed: nil, reporter: Self.reporter("deeplinker")).ok)
    }

    @Test func x11AndSwayNeedFocusWatchReporting() {
        let x11 = ["DISPLAY": "unix:5"]
        let silent = Self.check(x11, installed: nil, reporter: Self.reporter("gnome-shell"))
        #expect(!silent.ok && silent.detail.hasPrefix("X11 on DISPLAY=unix:5, but focus-watch is not reporting"))
        let working = Self.check(x11, installed: nil, reporter: Self.reporter("deeplinker", ""))
        #expect(working.ok && working.detail == "X11 on DISPLAY=unix:5, focus-watch reporting")
        // A Wayland compositor with no reporter at all is named as before.
        let other = Self.check(["WAYLAND_DISPLAY": "wayland-0"], installed: nil)
        #expect(!other.ok && other.detail.contains("no focus backend"))
    }

    @Test func theProgramABrowserHostWrapperStarts() {
        let wrapper = BrowserHostsTestAccess.wrapper("/opt/it's here/deeplinker")
        #expect(DoctorChecks.wrapperProgram(wrapper) == "/opt/it's here/deeplinker")
        #expect(DoctorChecks.wrapperProgram("{\"not\": \"a script\"}") == nil)
        let gone = DoctorChecks.browserHostWrappers([("/w/native-host", wrapper)]) { _ in false }
        #expect(gone?.ok == false && gone?.detail == "/w/native-host starts /opt/it's here/deeplinker, which does not exist or is not executable")
        #expect(DoctorChecks.browserHostWrappers([("/w/native-host", wrapper)], isExecutable: Self.always)?.ok == true)
        #expect(DoctorChecks.browserHostWrappers([("/usr/bin/deeplinker", "\u{7F}ELF")], isExecutable: Self.always) == nil)
    }
}

/// The wrapper text `install-browser` writes, for the parser's test.
enum BrowserHostsTestAccess {
    static func wrapper(_ executable: String) -> String {
        "#!/bin/sh\n# Written by `deeplinker install-browser`.\nexec '\(executable.replacingOccurrences(of: "'", with: "'\\''"))' native-host \"$@\"\n"
    }
}

/// The same checks on real setups: a daemon started with its own route directory, as
/// `scripts/run-daemon` does, and a host wrapper naming a program that is not there.
extension DoctorTests {
    @Test func doctorChecksTheRouteFilesOfTheRunningDaemon() async throws {
        let shippedApps = TestFiles.repository("Config/apps")
        try await DaemonFixture.withDaemon(startDaemon: false) { f in
            // As scripts/run-daemon: deeplinkerd --config-dir Config/apps.
            try await f.spawnDaemonProcess(arguments: ["--config-dir", shippedApps])
            let d = DesktopLauncherFixture(f: f)
            // No --config-dir: doctor asks the daemon where its route files are.
            let result = try await TestProcess.run(
                TestProcess.product("deeplinker"), ["doctor", app, "--json", "--bus-address", f.bus.address], environment: d.environment)
            let checks = try JSONDecoder().decode([DoctorCheck].self, from: Data(result.stdout.utf8))
            let files = try #require(checks.first { $0.name == "daemon files" }, "\(result.stdout) \(result.stderr)")
            #expect(files.ok && files.detail.hasPrefix("route files from \(shippedApps); state in \(f.stateDir)"), "\(files)")
            #expect(checks.contains { $0.name == "route file \(shippedApps)/\(app).toml" && $0.ok }, "\(result.stdout)")
            #expect(!checks.contains { $0.name.hasPrefix("route file") && !$0.ok }, "\(result.stdout)")
            let hosts = try #require(checks.first { $0.name == "browser hosts" })
            #expect(hosts.detail != "no app claims https domains")
        }
    }

    @Test func aHostWrapperThatStartsAMissingProgramFails() async throws {
        try await DaemonFixture.withDaemon(shipped: [app]) { f in
            let setup = try await Setup.make(f, app: app)
            defer { setup.manager.stop() }
            let install = try await setup.d.deeplinker(["install-browser", "--browser", "chromium", "--exec", "/nonexistent/deeplinker"])
            #expect(install.status == 0, "\(install.stderr)")
            let (status, checks, out) = try await setup.doctor([app])
            #expect(status == 12)
            let bad = failed(checks)
            #expect(bad.map(\.name) == ["browser host wrapper"], "\(out.stdout)")
            #expect(bad.first?.detail.hasSuffix("starts /nonexistent/deeplinker, which does not exist or is not executable") == true)
        }
    }
}
