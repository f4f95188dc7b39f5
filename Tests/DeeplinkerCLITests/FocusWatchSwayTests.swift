import DBusKit
import Foundation
import Testing
import DeeplinkerTestSupport

/// `focus-watch --backend sway` against a headless sway with real GTK3 Wayland windows, whose
/// `app_id` names the app; `swaymsg '[app_id=…] focus'` moves the focus (SPEC §6, §7).
@Suite(.serialized, .enabled(if: SwaySession.isInstalled, "sway is not installed (scripts/setup installs it)"))
struct FocusWatchSwayTests {
    static let app = "org.example.SwayApp"
    static let other = "org.example.SwayOther"

    @Test func aWaylandWindowIsFoundByItsAppIDAndGetsItsRouteWhenFocused() async throws {
        let routeFile = TestRouteFiles.minimal(scheme: "swayapp", ["ready": "\"focus\""])
        try await DaemonFixture.withDaemon(routeFiles: [Self.app: routeFile]) { f in
            try await SwaySession.with { sway in
                let bus = ["DBUS_SESSION_BUS_ADDRESS": f.bus.address]
                let watch = try f.spawn(
                    ["focus-watch", "--verbose"],
                    environment: ["DISPLAY": "", "WAYLAND_DISPLAY": sway.waylandDisplay, "SWAYSOCK": sway.socket])
                try await watch.waitForLine(containing: "reported \"\"")
                // sway focuses each new window: once focus-watch reports it, sway knows its app_id.
                _ = try await sway.openWindow(Self.app, environment: bus)
                try await watch.waitForLine(containing: "reported \(Self.app)")
                _ = try await sway.openWindow(Self.other, environment: bus)
                try await watch.waitForLine(containing: "reported \(Self.other)")
                try await f.client.waitForOwner(Self.app)
                let opened = try await f.openURL("", "swayapp://page/3")
                #expect(try await f.pending(Self.app)?.id == opened.id)

                try await sway.focus(Self.app)
                try await watch.waitForLine(containing: "reported \(Self.app)")
                let received = try await f.pythonReceived.first { $0.target == "page" }
                #expect(received.parameters == ["id": "3"])
                try await f.waitStatus(opened.id, "delivered")

                try await sway.focus(Self.other)
                try await watch.waitForLine(containing: "reported \(Self.other)")
                #expect(try await f.appState(Self.app) == "inactive")
            }
        }
    }

    @Test func focusWatchExits13WhenSwayGoesAway() async throws {
        try await DaemonFixture.withDaemon { f in
            try await SwaySession.with { sway in
                let watch = try f.spawn(["focus-watch", "--backend", "sway", "--verbose"], environment: ["SWAYSOCK": sway.socket])
                try await watch.waitForLine(containing: "reported")
                sway.compositor.stop()
                let (status, stderr) = try await watch.finish()
                #expect(status == 13)
                #expect(stderr.contains("sway at \(sway.socket) went away"))
            }
        }
    }
}
