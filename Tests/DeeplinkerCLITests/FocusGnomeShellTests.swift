import DBusKit
import DeeplinkerCLI
import Foundation
import Testing
import DeeplinkerTestSupport

/// `ready = "focus"` on GNOME Shell: the extension `focus@deeplinker.org`, installed by
/// `deeplinker install-gnome-extension`, in a real headless GNOME Shell with real GTK3 Wayland
/// windows; the test-only helper extension moves the focus (SPEC §6, §7).
@Suite(.serialized, .enabled(if: GnomeShellSession.isInstalled, "gnome-shell is not installed (scripts/setup installs it)"))
struct FocusGnomeShellTests {
    static let app = "org.example.GnomeApp"
    static let other = "org.example.GnomeOther"
    static let uuid = "focus@deeplinker.org"

    @Test func theExtensionReportsTheFocusedAppAndItsRoutesGoOutWhenItsWindowIsFocused() async throws {
        let routeFile = TestRouteFiles.minimal(scheme: "gnomeapp", ["ready": "\"focus\""])
        try await DaemonFixture.withDaemon(routeFiles: [Self.app: routeFile]) { f in
            try await GnomeShellSession.with(busAddress: f.bus.address, home: f.root + "/gnome-home") { gnome in
                // Installed while the shell is not running, as before a login.
                let install = try await f.run(["install-gnome-extension"], environment: gnome.environment())
                #expect(install.status == 0, "\(install.stderr)")
                #expect(install.stdout.contains("gnome-43 format"))
                #expect(install.stdout.contains("next login"))
                let monitor = try await FocusReportMonitor(busAddress: f.bus.address)
                try await gnome.start()
                #expect(try await gnome.extensionState(Self.uuid) == 1)
                // The shell starts in the Overview, where nothing has the focus.
                try await monitor.waitAnswered("")

                _ = try await gnome.openWindow(Self.app)
                _ = try await gnome.openWindow(Self.other)
                try await f.client.waitForOwner(Self.app)
                try await gnome.activate(Self.other)
                try await monitor.waitAnswered(Self.other)
                #expect(try await f.appState(Self.app) == "inactive")
                let opened = try await f.openURL("", "gnomeapp://page/3")
                #expect(try await f.pending(Self.app)?.id == opened.id)

                // The app's window takes the focus: active, and the route goes out.
                try await gnome.activate(Self.app)
                try await monitor.waitAnswered(Self.app)
                let received = try await f.pythonReceived.first { $0.target == "page" }
                #expect(received.parameters == ["id": "3"])
                try await f.waitStatus(opened.id, "delivered")
                #expect(try await f.appState(Self.app) == "active")
                let proxy = try f.proxy()
                defer { proxy.connection.close() }
                let reporter = try await proxy.properties().focusReporter
                #expect(reporter?.command == "gnome-shell")
                #expect(reporter?.appID == Self.app)

                // The focus leaves: inactive.
                try await gnome.activate(Self.other)
                try await monitor.waitAnswered(Self.other)
                #expect(try await f.appState(Self.app) == "inactive")
                // Each report was a change.
                let sent = monitor.calls.map(\.appID)
                #expect(zip(sent, sent.dropFirst()).allSatisfy { $0 != $1 }, "\(sent)")

                // uninstall-gnome-extension disables it in the running shell: it reports "".
                try await gnome.activate(Self.app)
                try await monitor.waitAnswered(Self.app)
                let uninstall = try await f.run(["uninstall-gnome-extension"], environment: gnome.environment())
                #expect(uninstall.status == 0, "\(uninstall.stderr)")
                try await monitor.waitAnswered("")
                #expect(try await f.appState(Self.app) == "inactive")
                #expect(!FileManager.default.fileExists(atPath: gnome.home + "/.local/share/gnome-shell/extensions/\(Self.uuid)"))
                #expect(!(try await gnome.gsettings(["get", "org.gnome.shell", "enabled-extensions"])).contains(Self.uuid))
                #expect(!(try await gnome.gsettings(["get", "org.gnome.shell", "disabled-extensions"])).contains(Self.uuid))
            }
        }
    }

    @Test func afterADaemonRestartTheExtensionSendsTheFocusAgain() async throws {
        let routeFile = TestRouteFiles.minimal(scheme: "gnomeapp", ["ready": "\"focus\""])
        try await DaemonFixture.withDaemon(routeFiles: [Self.app: routeFile]) { f in
            try await GnomeShellSession.with(busAddress: f.bus.address, home: f.root + "/gnome-home") { gnome in
                #expect(try await f.run(["install-gnome-extension"], environment: gnome.environment()).status == 0)
                let monitor = try await FocusReportMonitor(busAddress: f.bus.address)
                try await gnome.start()
                _ = try await gnome.openWindow(Self.app)
                try await f.client.waitForOwner(Self.app)
                try await gnome.activate(Self.app)
                try await monitor.waitAnswered(Self.app)

                try await f.stopDaemon()
                try await f.startDaemon()
                // The new daemon learns the focus from the extension, not from its database.
                let resent = try await monitor.waitAnswered(Self.app)
                #expect(resent.error == nil)
                #expect(try await f.appState(Self.app) == "active")
                let opened = try await f.openURL("", "gnomeapp://page/4")
                try await f.waitStatus(opened.id, "delivered")

                // doctor names the session's reporter and finds it installed, enabled and reporting.
                let doctor = try await f.run(["doctor", Self.app, "--json"], environment: gnome.environment())
                let checks = try JSONDecoder().decode([DoctorCheck].self, from: Data(doctor.stdout.utf8))
                let focus = try #require(checks.first { $0.name == "focus \(Self.app)" }, "\(doctor.stdout)")
                #expect(focus.ok && focus.detail.hasPrefix("GNOME Shell extension \(Self.uuid) at \(gnome.home)/.local/share/gnome-shell/extensions/\(Self.uuid), enabled and running, reporting"), "\(focus)")
            }
        }
    }

    @Test func aBareWindowIsFoundByItsDesktopEntry() async throws {
        let bareApp = "org.example.GnomeBare"
        try await DaemonFixture.withDaemon(routeFiles: [bareApp: TestRouteFiles.minimal(scheme: "gnomebare", ["ready": "\"focus\"", "delivery": "\"signal\""])]) { f in
            try await GnomeShellSession.with(busAddress: f.bus.address, home: f.root + "/gnome-home") { gnome in
                // The shell's window tracker maps the window (class "gnomebarewindow", its Wayland
                // app_id, which is no app id) to this entry by StartupWMClass.
                let applications = gnome.home + "/.local/share/applications"
                try TestFiles.writeBareDesktopEntry(appID: bareApp, name: "Gnome Bare", wmClass: "gnomebarewindow", in: applications)
                #expect(try await f.run(["install-gnome-extension"], environment: gnome.environment()).status == 0)
                let monitor = try await FocusReportMonitor(busAddress: f.bus.address)
                try await gnome.start()
                _ = try await gnome.openBareWindow("gnomebarewindow")
                _ = try await gnome.openWindow(Self.other)
                try await gnome.activate(Self.other)
                try await monitor.waitAnswered(Self.other)
                let opened = try await f.openURL("", "gnomebare://page/1")
                #expect(f.delivers.all.isEmpty)
                try await gnome.activate("bare gnomebarewindow")
                try await monitor.waitAnswered(bareApp)
                let delivered = try await f.delivers.first { $0.id == opened.id }
                #expect(delivered.appID == bareApp)
            }
        }
    }
}
