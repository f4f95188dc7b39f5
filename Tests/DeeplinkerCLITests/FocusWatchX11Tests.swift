import DBusKit
import Foundation
import Testing
import DeeplinkerTestSupport

/// `ready = "focus"` with `deeplinker focus-watch --backend x11` on a real X server (Xvfb +
/// openbox) with real GTK3 windows; `xdotool windowactivate` moves the focus (SPEC §6, §7).
@Suite(.serialized) struct FocusWatchX11Tests {
    static let gtkApp = "org.example.FocusApp"
    static let bareApp = "org.example.BareApp"
    static let scopedApp = "org.example.ScopedApp"

    static func routeFile(_ scheme: String, delivery: String) -> String {
        TestRouteFiles.minimal(scheme: scheme, ["ready": "\"focus\"", "delivery": "\"\(delivery)\""])
    }

    /// `focus-watch --verbose` on the session's display, talking to the fixture's bus.
    static func focusWatch(_ f: DaemonFixture, _ x: X11Session) throws -> TestProcess {
        try f.spawn(["focus-watch", "--backend", "x11", "--verbose"], environment: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "SWAYSOCK": ""])
    }

    /// Focuses `window` and waits until the daemon has answered the report of `appID`.
    static func focus(_ window: String, reporting appID: String, _ x: X11Session, _ watch: TestProcess) async throws {
        try await x.activate(window)
        try await watch.waitForLine(containing: "reported \(appID.isEmpty ? "\"\"" : appID)")
    }

    @Test func aGtkApplicationWindowIsFoundByItsApplicationIDAndGetsItsRouteWhenFocused() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.gtkApp: Self.routeFile("focusapp", delivery: "activate-action")]) { f in
            try await X11Session.with { x in
                let bus = ["DBUS_SESSION_BUS_ADDRESS": f.bus.address]
                let (_, appWindow) = try await x.openWindow(.application(Self.gtkApp), environment: bus)
                let (_, otherWindow) = try await x.openWindow(.bare(wmClass: "Unrelated"), environment: bus)
                try await f.client.waitForOwner(Self.gtkApp)
                let watch = try Self.focusWatch(f, x)
                try await Self.focus(otherWindow, reporting: "", x, watch)
                #expect(try await f.appState(Self.gtkApp) == "inactive")

                // Another window has the focus: the route waits.
                let opened = try await f.openURL("", "focusapp://page/5")
                #expect(try await f.pending(Self.gtkApp)?.id == opened.id)

                // The app's window gets the focus: active, and the route goes out.
                try await Self.focus(appWindow, reporting: Self.gtkApp, x, watch)
                let received = try await f.pythonReceived.first { $0.target == "page" }
                #expect(received.parameters == ["id": "5"])
                try await f.waitStatus(opened.id, "delivered")
                #expect(try await f.appState(Self.gtkApp) == "active")

                // The focus leaves: inactive again, and the next route waits.
                try await Self.focus(otherWindow, reporting: "", x, watch)
                #expect(try await f.appState(Self.gtkApp) == "inactive")
                let next = try await f.openURL("", "focusapp://page/6")
                #expect(try await f.pending(Self.gtkApp)?.id == next.id)
            }
        }
    }

    @Test func aBareWindowIsFoundByTheStartupWMClassOfADesktopEntry() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.bareApp: Self.routeFile("bareapp", delivery: "signal")]) { f in
            let applications = f.root + "/xdg-data/applications"
            try TestFiles.writeBareDesktopEntry(appID: Self.bareApp, name: "Bare", wmClass: "BareWindow", in: applications)
            try await X11Session.with { x in
                let (_, appWindow) = try await x.openWindow(.bare(wmClass: "BareWindow"))
                let (_, otherWindow) = try await x.openWindow(.bare(wmClass: "Unrelated"))
                let watch = try Self.focusWatch(f, x)
                try await Self.focus(otherWindow, reporting: "", x, watch)
                let opened = try await f.openURL("", "bareapp://page/1")
                #expect(f.delivers.all.isEmpty)
                try await Self.focus(appWindow, reporting: Self.bareApp, x, watch)
                let delivered = try await f.delivers.first { $0.id == opened.id }
                #expect(delivered.appID == Self.bareApp && delivered.parameters == ["id": "1"])
            }
        }
    }

    /// The cgroup v1 hierarchy systemd uses, when this process may make cgroups in it (root).
    static let cgroupHierarchy = "/sys/fs/cgroup/systemd"
    static var canMakeCgroups: Bool {
        let probe = "\(cgroupHierarchy)/deeplinker-probe-\(getpid())"
        guard mkdir(probe, 0o755) == 0 else { return false }
        rmdir(probe)
        return true
    }

    @Test(.enabled(if: canMakeCgroups, "no writable cgroup hierarchy here: the scope mapping is covered by FocusMappingTests only"))
    func aWindowInAnAppScopeIsFoundByItsProcess() async throws {
        // A transient scope needs a systemd user manager; a cgroup whose last component is such a
        // scope's name is what focus-watch reads in /proc/PID/cgroup.
        let parent = "\(Self.cgroupHierarchy)/deeplinker-test-\(UUID().uuidString.prefix(8))"
        let scope = "\(parent)/app-test-org.example.ScopedApp-1234.scope"
        try FileManager.default.createDirectory(atPath: scope, withIntermediateDirectories: true)
        defer { for dir in [scope, parent] { rmdir(dir) } }
        try await DaemonFixture.withDaemon(routeFiles: [Self.scopedApp: Self.routeFile("scopedapp", delivery: "signal")]) { f in
            try await X11Session.with { x in
                let (process, appWindow) = try await x.openWindow(.bare(wmClass: "NoEntry"), prefix: "echo $$ > \(scope)/cgroup.procs &&")
                let (_, otherWindow) = try await x.openWindow(.bare(wmClass: "Unrelated"))
                let watch = try Self.focusWatch(f, x)
                try await Self.focus(otherWindow, reporting: "", x, watch)
                let opened = try await f.openURL("", "scopedapp://page/2")
                try await Self.focus(appWindow, reporting: Self.scopedApp, x, watch)
                let delivered = try await f.delivers.first { $0.id == opened.id }
                #expect(delivered.appID == Self.scopedApp)
                process.stop()
                _ = try? await process.waitForExit()
            }
        }
    }

    @Test func focusWatchExits13WhenTheXServerGoesAway() async throws {
        try await DaemonFixture.withDaemon { f in
            try await X11Session.with { x in
                let watch = try Self.focusWatch(f, x)
                try await watch.waitForLine(containing: "reported")
                x.server.stop()
                let (status, stderr) = try await watch.finish()
                #expect(status == 13)
                #expect(stderr.contains("the X display \(x.display) went away"))
            }
        }
    }

    @Test func focusWatchFollowsAnXServerThatIsBackAtOnce() async throws {
        try await DaemonFixture.withDaemon { f in
            try await X11Session.with { x in
                let watch = try Self.focusWatch(f, x)
                try await watch.waitForLine(containing: "reported")
                x.server.stop()
                _ = try? await x.server.waitForExit()
                // The same display number again, ready when it prints it.
                let again = try TestProcess(
                    executable: "/usr/bin/Xvfb", arguments: [x.display, "-displayfd", "1", "-screen", "0", "640x480x24", "-nolisten", "tcp"],
                    environment: x.environment())
                defer { again.stop() }
                _ = try await again.stdoutLines.next { !$0.isEmpty }
                let line = try await watch.waitForErrorLine(containing: "connected again")
                #expect(line.contains("the X display \(x.display) went away"))
                again.stop()
                let (status, stderr) = try await watch.finish()
                #expect(status == 13)
                #expect(stderr.contains("the X display \(x.display) went away"))
            }
        }
    }

    @Test func focusWatchExits13WithNoBackend() async throws {
        try await DaemonFixture.withDaemon { f in
            let none = try await f.run(["focus-watch"], environment: ["DISPLAY": "", "WAYLAND_DISPLAY": "", "SWAYSOCK": ""])
            #expect(none.status == 13)
            #expect(none.stderr.contains("no focus backend"))
            // A Wayland compositor that is neither sway, KDE Plasma nor GNOME Shell.
            let other = try await f.run(["focus-watch"], environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "SWAYSOCK": "", "XDG_CURRENT_DESKTOP": "Hyprland"])
            #expect(other.status == 13 && other.stderr.contains("it has no focus reporter"))
            let noServer = try await f.run(["focus-watch", "--backend", "x11"], environment: ["DISPLAY": ":4242"])
            #expect(noServer.status == 13 && noServer.stderr.contains("cannot connect to the X display :4242"))
        }
    }
}
