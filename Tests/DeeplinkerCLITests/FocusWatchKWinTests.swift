import DBusKit
import DeeplinkerCLI
import Foundation
import Testing
import DeeplinkerTestSupport

/// `focus-watch --backend kwin` against a real headless KWin (kwin_wayland 5.27) with real GTK3
/// Wayland windows: its script, loaded live through org.kde.kwin.Scripting, reports each
/// activation back to focus-watch (SPEC §6, §7).
@Suite(.serialized, .enabled(if: KWinSession.isInstalled, "kwin_wayland is not installed (scripts/setup installs kwin-wayland)"))
struct FocusWatchKWinTests {
    static let app = "org.example.KWinApp"
    static let other = "org.example.KWinOther"

    /// `focus-watch --verbose` in the KDE session (auto picks kwin from XDG_CURRENT_DESKTOP).
    static func focusWatch(_ f: DaemonFixture, _ kwin: KWinSession, _ arguments: [String] = []) throws -> TestProcess {
        try f.spawn(["focus-watch", "--verbose"] + arguments, environment: kwin.environment())
    }

    @Test func aKWinWindowGetsItsRouteWhenFocusedAndTheEmptyActivationBetweenWindowsDoesNotFlap() async throws {
        let routeFile = TestRouteFiles.minimal(scheme: "kwinapp", ["ready": "\"focus\""])
        try await DaemonFixture.withDaemon(routeFiles: [Self.app: routeFile]) { f in
            try await KWinSession.with(busAddress: f.bus.address) { kwin in
                let watch = try Self.focusWatch(f, kwin)
                try await watch.waitForErrorLine(containing: "KWin script")
                try await watch.waitForLine(containing: "reported \"\"")
                // Each new window takes the focus.
                try await kwin.openWindow(Self.app)
                try await watch.waitForLine(containing: "reported \(Self.app)")
                let otherWindow = try await kwin.openWindow(Self.other)
                try await watch.waitForLine(containing: "reported \(Self.other)")
                try await f.client.waitForOwner(Self.app)
                #expect(try await f.appState(Self.app) == "inactive")
                let opened = try await f.openURL("", "kwinapp://page/7")
                #expect(try await f.pending(Self.app)?.id == opened.id)

                try await kwin.activate(Self.app)
                try await watch.waitForLine(containing: "reported \(Self.app)")
                let received = try await f.pythonReceived.first { $0.target == "page" }
                #expect(received.parameters == ["id": "7"])
                try await f.waitStatus(opened.id, "delivered")

                try await kwin.activate(Self.other)
                try await watch.waitForLine(containing: "reported \(Self.other)")
                #expect(try await f.appState(Self.app) == "inactive")
                // KWin activated "no window" before each of these windows; none was reported.
                let focusLines = watch.stdout.split(separator: "\n").filter { $0.hasPrefix("focus ") }
                #expect(focusLines == ["focus \"\"", "focus \(Self.app)", "focus \(Self.other)", "focus \(Self.app)", "focus \(Self.other)"], "\(focusLines)")

                // The focused window closes and KWin focuses the one below it: no "" between.
                otherWindow.stop()
                #expect(try await watch.waitForLine(containing: "reported ") == "reported \(Self.app)")
            }
        }
    }

    @Test func whenNoWindowFollowsTheEmptyActivationIsReported() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.app: TestRouteFiles.minimal(scheme: "kwinapp", ["ready": "\"focus\""])]) { f in
            try await KWinSession.with(busAddress: f.bus.address) { kwin in
                let watch = try Self.focusWatch(f, kwin, ["--backend", "kwin"])
                try await watch.waitForLine(containing: "reported \"\"")
                let window = try await kwin.openWindow(Self.app)
                try await watch.waitForLine(containing: "reported \(Self.app)")
                #expect(try await f.appState(Self.app) == "active")
                let doctor = try await f.run(["doctor", Self.app, "--json"], environment: kwin.environment())
                let checks = try JSONDecoder().decode([DoctorCheck].self, from: Data(doctor.stdout.utf8))
                let focus = try #require(checks.first { $0.name == "focus \(Self.app)" }, "\(doctor.stdout)")
                #expect(focus.ok && focus.detail == "KDE Plasma: focus-watch and its KWin script, reporting", "\(focus)")
                window.stop()
                try await watch.waitForLine(containing: "reported \"\"")
                let proxy = try f.proxy()
                defer { proxy.connection.close() }
                let reporter = try await proxy.properties().focusReporter
                #expect(reporter?.appID == "")
                #expect(reporter?.command == "deeplinker")
            }
        }
    }

    @Test func aBareWindowIsFoundByTheStartupWMClassOfItsDesktopEntry() async throws {
        let bareApp = "org.example.KWinBare"
        try await DaemonFixture.withDaemon(routeFiles: [bareApp: TestRouteFiles.minimal(scheme: "kwinbare", ["ready": "\"focus\"", "delivery": "\"signal\""])]) { f in
            let applications = f.root + "/kwin-data/applications"
            try TestFiles.writeBareDesktopEntry(appID: bareApp, name: "KWin Bare", wmClass: "kwinbarewindow", in: applications)
            try await KWinSession.with(busAddress: f.bus.address) { kwin in
                let watch = try f.spawn(["focus-watch", "--verbose"], environment: kwin.environment(["XDG_DATA_HOME": f.root + "/kwin-data"]))
                try await watch.waitForLine(containing: "reported \"\"")
                try await kwin.openWindow(Self.app)
                try await watch.waitForLine(containing: "reported \(Self.app)")
                let opened = try await f.openURL("", "kwinbare://page/2")
                try await kwin.openBareWindow("kwinbarewindow")
                try await watch.waitForLine(containing: "reported \(bareApp)")
                let delivered = try await f.delivers.first { $0.id == opened.id }
                #expect(delivered.appID == bareApp)
            }
        }
    }

    @Test func theScriptIsLoadedAgainWhenKWinRestartsAndUnloadedWhenFocusWatchStops() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.app: TestRouteFiles.minimal(scheme: "kwinapp", ["ready": "\"focus\""])]) { f in
            try await KWinSession.with(busAddress: f.bus.address) { kwin in
                let watch = try Self.focusWatch(f, kwin)
                let loaded = try await watch.waitForErrorLine(containing: "KWin script")
                let plugin = try #require(loaded.split(separator: " ").first { $0.hasPrefix("deeplinker-focus-") }.map(String.init))
                let scriptFile = "\(kwin.runtimeDirectory)/\(plugin).js"
                #expect(FileManager.default.fileExists(atPath: scriptFile))
                #expect(try await kwin.isScriptLoaded(plugin))
                try await watch.waitForLine(containing: "reported \"\"")

                try await kwin.stop()
                try await kwin.start()
                try await watch.waitForErrorLine(containing: "KWin script \(plugin) loaded")
                try await kwin.openWindow(Self.app)
                try await watch.waitForLine(containing: "reported \(Self.app)")

                watch.signal(SIGTERM)
                let (status, stderr) = try await watch.finish()
                #expect(status == 0, "\(stderr)")
                #expect(try await kwin.isScriptLoaded(plugin) == false)
                #expect(!FileManager.default.fileExists(atPath: scriptFile))
            }
        }
    }

    @Test func autoOnGnomeExitsZeroNamingTheExtension() async throws {
        try await DaemonFixture.withDaemon { f in
            let result = try await f.run(["focus-watch"], environment: ["XDG_CURRENT_DESKTOP": "GNOME", "WAYLAND_DISPLAY": "wayland-0", "SWAYSOCK": "", "DISPLAY": ""])
            #expect(result.status == 0)
            #expect(result.stderr.contains("focus@deeplinker.org"))
        }
    }
}
