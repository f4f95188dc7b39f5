import DBusKit
import DeeplinkerClient
import DeeplinkerCore
import DeeplinkerTestSupport
import Foundation
import Testing

/// `deeplinker status` and `deeplinker reload` (SPEC §7) against a running daemon and with none,
/// and one version for both tools.
@Suite("deeplinker status and reload")
struct StatusReloadTests {
    @Test("status of a running daemon: version, uptime, owner, state directory and database size, apps, pending routes")
    func statusRunning() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { fixture in
            _ = try await fixture.run(["open", "bestrecipes://recipe/12"])
            let human = try await fixture.run(["status"])
            #expect(human.status == 0, "\(human.stderr)")
            #expect(human.lines.first == "deeplinkerd is running")
            #expect(human.stdout.contains("version:            \(DeeplinkerVersion.current)"))
            #expect(human.stdout.contains("bus name owner:     \(fixture.daemonUniqueName ?? "?") (pid \(getpid()))"))
            #expect(human.stdout.contains("state directory:    \(fixture.stateDir)"))
            #expect(human.stdout.contains("apps loaded:        2 (com.bestrecipes.App, com.example.Apartments)"))
            #expect(human.stdout.contains("com.bestrecipes.App: recipe (url, "))
            #expect(human.stdout.contains("broken route files: none"))

            let json = try await fixture.run(["status", "--json"])
            #expect(json.status == 0)
            let object = try DaemonFixture.json(json.stdout)
            #expect(object["running"] as? Bool == true)
            #expect(object["version"] as? String == DeeplinkerVersion.current)
            #expect(object["owner"] as? String == fixture.daemonUniqueName)
            #expect(object["state_directory"] as? String == fixture.stateDir)
            #expect((object["database_bytes"] as? Int ?? 0) > 0)
            #expect((object["uptime_seconds"] as? Int).map { $0 >= 0 } == true)
            #expect((object["apps"] as? [String])?.count == 2)
            let pending = try #require(object["pending"] as? [String: Any])
            #expect((pending["com.bestrecipes.App"] as? [String: Any])?["target"] as? String == "recipe")
            #expect((object["broken_route_files"] as? [String]) == [])
        }
    }

    @Test("status with the daemon down: a clear answer and exit 3, human and JSON")
    func statusDown() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { fixture in
            let human = try await fixture.run(["status"])
            #expect(human.status == 3)
            #expect(human.stdout == "deeplinkerd is not running\n")
            #expect(human.stderr.contains("the Deeplinker daemon is not running (nobody owns org.deeplinker.Deeplinker1"))
            let json = try await fixture.run(["status", "--json"])
            #expect(json.status == 3)
            #expect(try DaemonFixture.json(json.stdout)["running"] as? Bool == false)
            // No bus at all: the same exit code.
            let noBus = try await TestProcess.run(
                TestProcess.product("deeplinker"), ["status", "--bus-address", "unix:path=/nonexistent/bus"], environment: fixture.clientEnvironment())
            #expect(noBus.status == 3)
        }
    }

    @Test("reload: prints each broken file's error and exits 8; status lists it; a fixed file reloads with exit 0")
    func reloadBrokenFile() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { fixture in
            let file = fixture.configDir + "/com.example.Apartments.toml"
            let original = try TestFiles.read(file)
            try "schemes = [\"apartments\"\n".write(toFile: file, atomically: true, encoding: .utf8)
            let broken = try await fixture.run(["reload"])
            #expect(broken.status == 8)
            #expect(broken.stderr.contains(file + ":"), "\(broken.stderr)")
            #expect(broken.stderr.contains("route file problem"))
            let status = try await fixture.run(["status", "--json"])
            let files = try #require(try DaemonFixture.json(status.stdout)["broken_route_files"] as? [String])
            #expect(files.count == 1 && files[0].hasPrefix(file + ":"))
            let json = try await fixture.run(["reload", "--json"])
            #expect(json.status == 8)
            #expect(try DaemonFixture.json(json.lines[0])["reloaded"] as? Bool == false)

            try original.write(toFile: file, atomically: true, encoding: .utf8)
            let fixed = try await fixture.run(["reload"])
            #expect(fixed.status == 0, "\(fixed.stderr)")
            #expect(fixed.stdout == "reloaded the route files of 2 apps\n")
            let after = try await fixture.run(["status"])
            #expect(after.stdout.contains("broken route files: none"))
        }
    }

    @Test("reload with the daemon down exits 3")
    func reloadDown() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { fixture in
            let result = try await fixture.run(["reload"])
            #expect(result.status == 3)
            #expect(result.stderr.contains("not running"))
        }
    }

    @Test("a failed bus activation (Spawn.*) is reported as not running / could not be started, exit 3")
    func failedActivation() async throws {
        let services = try TemporaryDirectory(prefix: "deeplinker-spawn")
        // What the old `Exec=/usr/bin/env deeplinkerd` did under a user manager without ~/.local/bin on PATH.
        try "[D-BUS Service]\nName=org.deeplinker.Deeplinker1\nExec=/usr/bin/env deeplinkerd-not-on-path\n"
            .write(toFile: services.appending("org.deeplinker.Deeplinker1.service"), atomically: true, encoding: .utf8)
        // dbus-daemon learns that the activated child exited from SIGCHLD: PrivateBus starts it
        // with no signal blocked, or this would hang until the activation time-out.
        let bus = try PrivateBus(serviceDirectories: [services.path])
        defer { bus.stop() }
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        let result = try await TestProcess.run(TestProcess.product("deeplinker"), ["open", "bestrecipes://recipe/1"], environment: environment)
        #expect(result.status == 3)
        #expect(result.stderr.contains("is not running and could not be started (org.freedesktop.DBus.Error.Spawn."), "\(result.stderr)")
    }

    @Test("deeplinker --version and deeplinkerd --version print the same version")
    func oneVersion() async throws {
        let cli = try await TestProcess.run(TestProcess.product("deeplinker"), ["--version"], environment: [:])
        let daemon = try await TestProcess.run(TestProcess.product("deeplinkerd"), ["--version"], environment: [:])
        #expect(cli.stdout == DeeplinkerVersion.current + "\n")
        #expect(daemon.stdout == cli.stdout)
    }
}
