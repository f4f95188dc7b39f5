import DBusKit
import DeeplinkerTestSupport
import Foundation
import Testing

/// Launching and raising end to end with the real launchers: what `install-desktop` wrote sends an icon click
/// through `Launch`, which raises a running app; and a link for an app that is not running starts
/// it from its installed entry (never from the override that points back at `deeplinker`).
@Suite struct DesktopLaunchAndRaiseTests {
    let apartments = "com.example.Apartments"

    @Test func gioLaunchOfTheOverrideRaisesARunningApp() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let d = DesktopLauncherFixture(f: f)
            try d.installSystemEntry(apartments, """
                [Desktop Entry]
                Type=Application
                Name=Apartments
                Exec=/usr/bin/true %u
                DBusActivatable=true

                """)
            #expect(try await d.deeplinker(["install-desktop", apartments]).status == 0)
            let sim = try f.spawn(["simulate-app", apartments])
            defer { sim.stop() }
            try await sim.waitForLine(containing: "simulating \(apartments)")

            let launch = try await d.gio("print(Gio.DesktopAppInfo.new(sys.argv[1]).launch([], None))", ["\(apartments).desktop"])
            #expect(launch.stdout.contains("kind:       app-icon\n"), "\(launch.stdout)\(launch.stderr)")
            let raised = try await sim.waitForLine(containing: "activate ")
            #expect(raised.hasPrefix("activate (present the window)"))
            sim.send("q")
        }
    }

    @Test func aLinkStartsTheAppFromItsInstalledEntryAfterInstallDesktop() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { f in
            let d = DesktopLauncherFixture(f: f)
            try LaunchProbe.script.write(toFile: f.root + "/probe.sh", atomically: true, encoding: .utf8)
            try d.installSystemEntry(apartments, """
                [Desktop Entry]
                Type=Application
                Name=Apartments
                Exec=/bin/sh \(f.root)/probe.sh %u
                Icon=apartments

                """)
            #expect(try await d.deeplinker(["install-desktop", apartments]).status == 0)
            let override = try #require(TestFiles.readIfPresent("\(d.userApplications)/\(apartments).desktop"))
            #expect(override.contains("Exec=\(DesktopLauncherFixture.deeplinker) launch \(apartments)"))

            var environment = d.environment
            environment["NOTIFY_SOCKET"] = f.root + "/notify"
            environment["JOURNAL_STREAM"] = "8:99"
            try await f.startDaemon(environment: environment)
            let watcher = try f.connect()
            defer { watcher.close() }
            let launched = Recorder<LaunchProbe.Launched>()
            try await watcher.subscribe(LaunchProbe.launchedRule) { _, a in
                if let probe = LaunchProbe.Launched(a) { launched.put(probe) }
            }

            // A launcher hands its activation token to the handler it runs (xdg-open keeps the environment).
            var launcher = d.environment
            launcher["XDG_ACTIVATION_TOKEN"] = "launcher-token"
            let open = try await TestProcess.run("/usr/bin/xdg-open", ["deeplinkTutorial://messages/7"], environment: launcher)
            #expect(open.status == 0, "\(open.stderr)")
            let probe = try await launched.next()
            #expect(probe.argv == ["deeplinktutorial://messages/7"], "the URL as the daemon read it (schemes compare in lowercase)")
            #expect(probe.environment["XDG_ACTIVATION_TOKEN"] == "launcher-token")
            #expect(probe.environment["NOTIFY_SOCKET"] == "unset" && probe.environment["JOURNAL_STREAM"] == "unset")
            #expect(probe.session == probe.pid)
        }
    }
}
