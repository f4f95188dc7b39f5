import DBusKit
import Foundation
import Testing
import DeeplinkerTestSupport

/// The GNOME Shell extension's logic in its GNOME 45+ format, run by gjs outside the shell with
/// stand-ins for the Shell modules it imports (Tests/GnomeShell/extension-logic-test.js), against
/// the real daemon on a test bus; and every shipped file parses in the format it is loaded in.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gjs"), "gjs is not installed (scripts/setup installs it)"))
struct FocusExtensionLogicTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let shipped = repository.appendingPathComponent("GnomeShell/focus@deeplinker.org").path
    static let tests = repository.appendingPathComponent("Tests/GnomeShell").path

    @Test func everyFileOfTheExtensionParsesInItsFormat() async throws {
        let files = [
            "module:\(Self.shipped)/focus.js", "module:\(Self.shipped)/gnome-45/extension.js",
            "script:\(Self.shipped)/gnome-43/extension.js", "script:\(Self.tests)/focus-test-helper@deeplinker.org/extension.js",
        ]
        let result = try await TestProcess.run("/usr/bin/gjs", ["-m", "\(Self.tests)/parse-check.js"] + files)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.lines.count == files.count && result.lines.allSatisfy { $0.hasPrefix("parsed ") }, "\(result.output)")
        // The logic imports nothing, so it also loads as it is.
        let loaded = try await TestProcess.run("/usr/bin/gjs", ["-m", "\(Self.shipped)/focus.js"])
        #expect(loaded.status == 0, "\(loaded.output)")
        // Each metadata.json names the extension and the releases of its format only.
        for (format, versions) in [("gnome-43", ["43"]), ("gnome-45", ["45", "46", "47", "48"])] {
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(Self.shipped)/\(format)/metadata.json"))
            let metadata = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(metadata["uuid"] as? String == "focus@deeplinker.org")
            #expect(metadata["shell-version"] as? [String] == versions)
        }
    }

    @Test func theModuleReportsEachChangeInSpecOrderAgainWhenTheDaemonReturnsAndEmptyWhenDisabled() async throws {
        try await DaemonFixture.withDaemon { f in
            let monitor = try await FocusReportMonitor(busAddress: f.bus.address)
            let gjs = try TestProcess(
                executable: "/usr/bin/gjs", arguments: ["-m", "\(Self.tests)/extension-logic-test.js", Self.shipped],
                environment: f.clientEnvironment())
            func send(_ command: String) async throws -> String {
                gjs.send(command)
                return try await gjs.waitForLine(containing: "ok \(command.split(separator: " ")[0])")
            }
            #expect(try await send("check") == "ok check passed")

            _ = try await send(#"focus {"gtk": "org.example.First"}"#)
            _ = try await send("enable")
            // The daemon is there: it hears the focus the module found at enable.
            try await monitor.waitAnswered("org.example.First")
            // Another window of the same app: no call.
            _ = try await send(#"focus {"gtk": "org.example.First", "wmClass": "second"}"#)
            // A sandboxed id comes before the GTK application id.
            _ = try await send(#"focus {"sandboxed": "org.example.Flat", "gtk": "org.example.First"}"#)
            try await monitor.waitAnswered("org.example.Flat")
            // A bare program name is no app id: the window tracker's desktop entry is next.
            _ = try await send(#"focus {"gtk": "gtk3-demo", "wmClass": "gtk3-demo", "wayland": true, "trackerId": "org.example.Tracked.desktop", "trackerHasEntry": true}"#)
            try await monitor.waitAnswered("org.example.Tracked")
            // The Wayland app id, when it is one.
            _ = try await send(#"focus {"wmClass": "org.example.Wayland", "wayland": true, "trackerId": "window:3"}"#)
            try await monitor.waitAnswered("org.example.Wayland")
            // A window-backed app of the tracker (no entry), an X11 class and no process: none.
            _ = try await send(#"focus {"wmClass": "org.example.X11Class", "trackerId": "window:4"}"#)
            try await monitor.waitAnswered("")
            _ = try await send("focus null")

            // The daemon restarts: it is told the focus again, and nothing else was sent meanwhile.
            try await f.stopDaemon()
            _ = try await send(#"focus {"gtk": "org.example.WhileAway"}"#)
            try await f.startDaemon()
            try await monitor.waitAnswered("org.example.WhileAway")

            #expect(try await send("disable") == "ok disable handlers=0")
            try await monitor.waitAnswered("")
            let sent = monitor.calls.map(\.appID)
            #expect(sent == ["org.example.First", "org.example.Flat", "org.example.Tracked", "org.example.Wayland", "", "org.example.WhileAway", ""], "\(sent)")
            gjs.closeInput()
            #expect(try await gjs.waitForExit() == 0)
        }
    }
}
