import DeeplinkerCore
import DeeplinkerTestSupport
import Foundation
import Testing

/// The D-Bus-activatable handler entry (SPEC §8) against the real launchers: GIO calls the daemon's
/// `org.freedesktop.Application.Open` and starts no process, passing the launcher's startup id;
/// `xdg-open` (which does not speak D-Bus) still runs the entry's `Exec`.
@Suite struct HandlerEntryActivationTests {
    let app = "com.bestrecipes.App"

    /// A `deeplinker` for the handler's `Exec` that records each run and then runs the real one,
    /// with the real `deeplinkerd` beside it (what makes `install-desktop` write the activatable entry).
    func recordingDeeplinker(_ f: DaemonFixture) throws -> (exec: String, runs: String) {
        let bin = f.root + "/bin"
        let runs = f.root + "/exec-runs"
        try TestFiles.write("#!/bin/sh\necho \"$@\" >> \(runs)\nexec \(DesktopLauncherFixture.deeplinker) \"$@\"\n", to: bin + "/deeplinker")
        chmod(bin + "/deeplinker", 0o755)
        try FileManager.default.createSymbolicLink(atPath: bin + "/deeplinkerd", withDestinationPath: TestProcess.product("deeplinkerd"))
        return (bin + "/deeplinker", runs)
    }

    @Test func gioCallsTheDaemonAndXdgOpenRunsExec() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let d = DesktopLauncherFixture(f: f)
            let (exec, runs) = try recordingDeeplinker(f)
            let install = try await d.deeplinker(["install-desktop", app, "--exec", exec, "--no-verify"])
            #expect(install.status == 0, "\(install.stderr)")
            let handlerPath = "\(d.userApplications)/\(app).deeplinker.desktop"
            let servicePath = "\(d.environment["XDG_DATA_HOME"]!)/dbus-1/services/\(app).deeplinker.service"
            #expect(install.lines == [
                "wrote \(handlerPath)", "wrote \(servicePath)", "wrote \(d.userApplications)/\(app).desktop",
                "default handler for x-scheme-handler/bestrecipes",
            ])
            let handler = try #require(TestFiles.readIfPresent(handlerPath))
            for line in ["DBusActivatable=true", "StartupNotify=true", "NoDisplay=true", "Exec=\(exec) open --app \(app) %u"] {
                #expect(handler.contains("\n\(line)\n"), "missing: \(line)")
            }
            try await d.expectValid(handlerPath)
            let service = try #require(TestFiles.readIfPresent(servicePath))
            #expect(service == DesktopEntry.handlerService(appID: app, daemon: f.root + "/bin/deeplinkerd"))
            #expect(service.contains("\nName=\(app).deeplinker\n"))

            let standIn = try await StandInApp(app, busAddress: f.bus.address)
            defer { standIn.close() }
            try standIn.becomeActive()
            #expect(try await standIn.stateSeenByDaemon() == "active")

            // GIO with a launch context that has a startup id: D-Bus activation, platform_data.
            let launch = try await d.gio("""
                class Context(Gio.AppLaunchContext):
                    def do_get_startup_notify_id(self, info, files):
                        return 'launcher-1_TIME42'
                a = Gio.AppInfo.get_default_for_uri_scheme('bestrecipes')
                print(a.get_id(), a.get_boolean('DBusActivatable'))
                print(a.launch_uris([sys.argv[1]], Context()))
                """, ["bestrecipes://recipe/44"])
            #expect(launch.stdout == "\(app).deeplinker.desktop True\nTrue\n", "\(launch.stderr)")
            let received = try await standIn.received.next()
            #expect(received.target == "recipe")
            #expect(received.parameters == ["id": "44"])
            #expect(received.platformData["desktop-startup-id"]?.stringValue == "launcher-1_TIME42")
            #expect(received.platformData["deeplinker.url"]?.stringValue == "bestrecipes://recipe/44")
            // `gio open` (no launch context) takes the same way.
            let open = try await d.run("/usr/bin/gio", ["open", "bestrecipes://recipe/45"])
            #expect(open.status == 0, "\(open.stderr)")
            #expect(try await standIn.received.next().parameters == ["id": "45"])
            #expect(TestFiles.readIfPresent(runs) == nil, "GIO started the Exec")

            // xdg-open (generic mode) runs Exec, which passes the launcher's startup id on too.
            let xdg = try await TestProcess.run(
                "/usr/bin/xdg-open", ["bestrecipes://recipe/46"], environment: d.environment.merging(["DESKTOP_STARTUP_ID": "xdg-2_TIME7"]) { $1 })
            #expect(xdg.status == 0, "\(xdg.stdout)\(xdg.stderr)")
            let viaExec = try await standIn.received.next()
            #expect(viaExec.parameters == ["id": "46"])
            #expect(viaExec.platformData["desktop-startup-id"]?.stringValue == "xdg-2_TIME7")
            #expect(TestFiles.readIfPresent(runs) == "open --app \(app) bestrecipes://recipe/46\n")

            // uninstall-desktop removes the service file with the entry.
            let uninstall = try await d.deeplinker(["uninstall-desktop", app])
            #expect(uninstall.lines.contains("removed \(servicePath)"), "\(uninstall.stdout)")
            #expect(TestFiles.readIfPresent(servicePath) == nil)
        }
    }

    /// The daemon not running: GIO's call to the handler entry's name starts it through the service
    /// file `install-desktop` wrote, and the link is routed (the app is not running: it waits).
    @Test func gioStartsTheDaemonThroughTheHandlerEntrysName() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { f in
            let d = DesktopLauncherFixture(f: f)
            let install = try await d.deeplinker(["install-desktop", app, "--no-verify"])
            #expect(install.status == 0, "\(install.stderr)")
            let handlerName = "\(app).deeplinker"
            let written = try #require(TestFiles.readIfPresent("\(d.environment["XDG_DATA_HOME"]!)/dbus-1/services/\(handlerName).service"))
            // Into the private bus's service directory, with this fixture's directories and bus.
            let daemon = URL(fileURLWithPath: TestProcess.product("deeplinkerd")).resolvingSymlinksInPath().path
            #expect(written.contains("\nExec=\(daemon)\n"))
            let exec = "\(daemon) --config-dir \(f.configDir) --state-dir \(f.stateDir) --bus-address \(f.bus.address) --log-level warning"
            try written.replacingOccurrences(of: "\nExec=\(daemon)\n", with: "\nExec=\(exec)\n")
                .write(toFile: "\(f.serviceDir)/\(handlerName).service", atomically: true, encoding: .utf8)
            #expect(try await f.client.nameOwner(DaemonFixture.busName) == nil)

            let open = try await d.run("/usr/bin/gio", ["open", "bestrecipes://recipe/50"])
            #expect(open.status == 0, "\(open.stderr)")
            let owner = try #require(try await f.client.nameOwner(DaemonFixture.busName))
            #expect(try await f.client.nameOwner(handlerName) == owner)
            let pending = try await f.call("GetPending", [.string(app)])
            #expect(pending.first == .boolean(true))
            #expect(pending[3] == .string("recipe") && pending[4] == .stringDictionary(["id": "50"]))
        }
    }

    /// With no `deeplinkerd` beside `deeplinker`, the handler entry is the plain `Exec` one.
    @Test func withoutADaemonBesideItTheEntryRunsExec() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { f in
            let d = DesktopLauncherFixture(f: f)
            let bin = f.root + "/lonely"
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: bin + "/deeplinker", withDestinationPath: DesktopLauncherFixture.deeplinker)
            let install = try await d.deeplinker(["install-desktop", app, "--exec", bin + "/deeplinker", "--no-verify"])
            #expect(install.status == 0, "\(install.stderr)")
            #expect(install.stderr.contains("no deeplinkerd beside \(bin)/deeplinker"))
            let handler = try #require(TestFiles.readIfPresent("\(d.userApplications)/\(app).deeplinker.desktop"))
            #expect(!handler.contains("DBusActivatable"))
            try await d.expectValid("\(d.userApplications)/\(app).deeplinker.desktop")
        }
    }
}
