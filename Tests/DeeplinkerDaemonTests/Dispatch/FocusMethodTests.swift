import DBusKit
import DeeplinkerCore
import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// `SetFocusedApp` in process (SPEC §3, §6 "Readiness"): a `ready = "focus"` app is active while
/// its window has the focus; the route waits for it and goes out then.
@Suite("SetFocusedApp in process")
struct FocusMethodTests {
    static let focusApp = "org.example.Focus"
    static let signalApp = "org.example.Signal"
    static let routeFiles = [
        // `signal` delivery needs no owner: there is no bus here.
        focusApp: TestRouteFiles.minimal(scheme: "focus", ["ready": "\"focus\"", "delivery": "\"signal\""]),
        signalApp: TestRouteFiles.minimal(scheme: "signal", ["delivery": "\"signal\""]),
    ]

    static func delivered(_ d: InProcessDaemon) -> [String] {
        d.sent.all.filter { $0.member == "Deliver" }.compactMap { (try? $0.arguments())?[0].stringValue }
    }

    @Test("the route waits while another window has the focus, goes out when the app's has it; losing it ends active")
    func focusDeliversThePendingRoute() async throws {
        try await InProcessDaemon.withDaemon(routeFiles: Self.routeFiles) { (d: InProcessDaemon) async throws in
            let opened = try await d.reply("OpenURL", [.string(""), .string("focus://page/7")])
            #expect(try await d.reply("SetFocusedApp", [.string(Self.signalApp)]) == [])
            #expect(try await d.reply("SetFocusedApp", [.string("org.unknown.Window")]) == [])
            #expect(try await d.reply("GetPending", [.string(Self.focusApp)])[1] == opened[0])
            #expect(Self.delivered(d).isEmpty)
            _ = try await d.reply("SetFocusedApp", [.string(Self.focusApp)])
            #expect(try await d.reply("GetAppState", [.string(Self.focusApp)]) == [.string("active")])
            try await d.sent.wait { $0.member == "Deliver" }
            #expect(Self.delivered(d) == [Self.focusApp])
            #expect(try await d.reply("GetPending", [.string(Self.focusApp)])[0] == .boolean(false))
            // Focused: a new route goes out at once.
            _ = try await d.reply("OpenURL", [.string(""), .string("focus://home")])
            try await d.sent.wait(count: 2) { $0.member == "Deliver" }
            _ = try await d.reply("SetFocusedApp", [.string("")])
            // No bus name owner here, so not `inactive` but `not-running` (SPEC §2).
            #expect(try await d.reply("GetAppState", [.string(Self.focusApp)]) == [.string("not-running")])
        }
    }

    @Test("a ready = \"signal\" app is not made active by the focus")
    func signalAppsIgnoreTheFocus() async throws {
        try await InProcessDaemon.withDaemon(routeFiles: Self.routeFiles) { (d: InProcessDaemon) async throws in
            _ = try await d.reply("OpenURL", [.string(Self.signalApp), .string("signal://home")])
            _ = try await d.reply("SetFocusedApp", [.string(Self.signalApp)])
            #expect(try await d.reply("GetAppState", [.string(Self.signalApp)]) == [.string("not-running")])
            #expect(try await d.reply("GetPending", [.string(Self.signalApp)])[0] == .boolean(true))
        }
    }

    @Test("a malformed app id is InvalidParameter naming it", arguments: ["x", "org..x", "org.1x", String(repeating: "a.", count: 130) + "a"])
    func malformed(_ id: String) async throws {
        try await InProcessDaemon.withDaemon(routeFiles: Self.routeFiles) { (d: InProcessDaemon) async throws in
            let error = try await d.error("SetFocusedApp", [.string(id)])
            #expect(error.name == "org.deeplinker.Error.InvalidParameter")
            #expect(error.message.contains(id) && error.message.contains("app_id"))
        }
    }
}

/// The focus reporter's connection matters: when it leaves the bus (focus-watch stopped or
/// crashed), no app keeps the focus it reported.
@Suite("SetFocusedApp over the bus")
struct FocusReporterTests {
    static let script = #"""
        import sys, dbus
        bus = dbus.bus.BusConnection(sys.argv[1])
        print(bus.get_unique_name(), flush=True)
        bus.call_blocking("org.deeplinker.Deeplinker1", "/org/deeplinker/Deeplinker1", "org.deeplinker.Deeplinker1",
                          "SetFocusedApp", "s", [sys.argv[2]])
        print("reported", flush=True)
        sys.stdin.readline()
        """#

    @Test("the focused app is no longer active once the reporter's connection has left the bus")
    func reporterLeaving() async throws {
        try await DaemonFixture.withDaemon(routeFiles: FocusMethodTests.routeFiles) { f in
            let reporter = try TestProcess(
                executable: "/usr/bin/python3", arguments: ["-c", Self.script, f.bus.address, FocusMethodTests.focusApp],
                environment: ProcessInfo.processInfo.environment)
            let unique = try await reporter.stdoutLines.next { $0.hasPrefix(":") }
            try await reporter.waitForLine(containing: "reported")
            #expect(try await f.appState(FocusMethodTests.focusApp) == "active")
            reporter.closeInput()
            try await f.client.waitUntilUnowned(unique)
            #expect(try await f.appState(FocusMethodTests.focusApp) == "not-running")
        }
    }
}
