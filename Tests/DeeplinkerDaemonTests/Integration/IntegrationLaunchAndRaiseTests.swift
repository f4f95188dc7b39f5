import DBusKit
import Foundation
import DeeplinkerTestSupport
import Testing

/// SPEC §6 launch and raise against a real bus: a running app that is not active is asked to come
/// to the front with `Activate`; an app that is not running starts from its desktop entry in its
/// own session, with the invocation's URL and token and none of the daemon's service variables,
/// and is moved into its own transient scope when `org.freedesktop.systemd1` is on the bus.
@Suite(.serialized)
struct IntegrationLaunchAndRaiseTests {
    let recipes = TestRouteFiles.recipes
    static let launchable = "com.test.Launchable"

    // MARK: - Raise

    @Test("A link for a running, inactive app raises it with the token and the invocation id; the route waits for BecameActive")
    func raiseCarriesTokenAndInvocationID() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)]) { f in
            let app = try await f.standIn(recipes)
            #expect(try await app.stateSeenByDaemon() == "inactive")
            let v = try await f.call("Invoke", [
                .string(recipes), .string("url"), .string("bestrecipes://recipe/12"),
                .variantDictionary(["activation-token": .string("tok-1"), "desktop-startup-id": .string("sid-1")]),
            ])
            let reply = DaemonFixture.RouteReply(v)
            let activation = try await app.activations.first { _ in true }
            #expect(activation["activation-token"]?.stringValue == "tok-1")
            #expect(activation["desktop-startup-id"]?.stringValue == "sid-1")
            #expect(activation["deeplinker.invocation-id"]?.stringValue == reply.id)
            #expect(try await f.pending(recipes)?.id == reply.id, "raising does not deliver")
            #expect(app.received.all.isEmpty)

            try app.becomeActive()
            try await f.waitStatus(reply.id, "delivered")
            #expect(app.activations.all.count == 1)
            app.close()
        }
    }

    @Test("An icon Launch (no route) raises a running background app; an active app is not raised")
    func iconLaunchRaises() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)]) { f in
            let app = try await f.standIn(recipes)
            try app.emit("DidEnterBackground")
            #expect(try await app.stateSeenByDaemon() == "background")
            let v = try await f.call("Invoke", [
                .string(recipes), .string("launch"), .string("{}"), .variantDictionary(["activation-token": .string("icon-tok")]),
            ])
            #expect(v[0].stringValue == "", "an icon launch creates no invocation")
            let activation = try await app.activations.first { _ in true }
            #expect(activation["activation-token"]?.stringValue == "icon-tok")
            #expect(activation["deeplinker.invocation-id"] == nil)

            // Active: the route is delivered at once, and nothing asks the app to come forward.
            try app.becomeActive()
            #expect(try await app.stateSeenByDaemon() == "active")
            let id = try await f.barrier(app, url: "bestrecipes://recipe/3")
            #expect(app.activations.all.count == 1, "invocation \(id) for an active app must not raise it")
            app.close()
        }
    }

    @Test("raise = false: an inactive app is not asked to come to the front")
    func raiseOff() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes, ["raise": "false"])]) { f in
            let app = try await f.standIn(recipes)
            #expect(try await app.stateSeenByDaemon() == "inactive")
            let reply = try await f.openURL(recipes, "bestrecipes://recipe/7")
            try app.becomeActive()
            try await f.waitStatus(reply.id, "delivered")
            _ = try await app.received.first { $0.invocationID == reply.id }
            #expect(app.activations.all.isEmpty)
            app.close()
        }
    }

    // MARK: - Launch from the desktop entry

    /// A world with `launchable` configured for `launch`, its installed desktop entry (under
    /// `f.root/share`) running the probe script, and service-manager variables in the daemon's
    /// environment; `body` gets the fixture and the probe's reports.
    static func withLaunchWorld(
        launch: String = "\"auto\"", _ body: (DaemonFixture, Recorder<LaunchProbe.Launched>) async throws -> Void
    ) async throws {
        try await DaemonFixture.withDaemon(
            routeFiles: [launchable: TestRouteFiles.minimal(scheme: "launchable", ["launch": launch])], startDaemon: false
        ) { f in
            try LaunchProbe.script.write(toFile: f.root + "/probe.sh", atomically: true, encoding: .utf8)
            try TestFiles.write("""
                [Desktop Entry]
                Type=Application
                Name=Launchable
                Exec=/bin/sh \(f.root)/probe.sh --open %u
                Icon=launchable
                """, to: f.root + "/share/applications/\(launchable).desktop")
            let launched = Recorder<LaunchProbe.Launched>()
            try await f.client.subscribe(LaunchProbe.launchedRule) { _, a in
                if let probe = LaunchProbe.Launched(a) { launched.put(probe) }
            }
            try await f.startDaemon(environment: [
                "XDG_DATA_DIRS": f.root + "/share",
                "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                "NOTIFY_SOCKET": f.root + "/no-such-notify-socket",
                "WATCHDOG_USEC": "600000000",
                "LISTEN_FDS": "1",
                "JOURNAL_STREAM": "8:1234",
            ])
            try await body(f, launched)
        }
    }

    @Test("launch = auto: a non-activatable app starts from its entry in its own session with the URL, the token and no service variables")
    func autoLaunchesFromTheDesktopEntry() async throws {
        try await Self.withLaunchWorld { f, launched in
            let v = try await f.call("Invoke", [
                .string(Self.launchable), .string("url"), .string("launchable://page/42"),
                .variantDictionary(["activation-token": .string("tok-9"), "desktop-startup-id": .string("sid-9")]),
            ])
            let reply = DaemonFixture.RouteReply(v)
            #expect(reply.target == "page")
            let probe = try await launched.first { _ in true }
            #expect(probe.argv == ["--open", "launchable://page/42"])
            #expect(probe.session == probe.pid, "the app leads its own session (setsid)")
            #expect(probe.environment["XDG_ACTIVATION_TOKEN"] == "tok-9")
            #expect(probe.environment["DESKTOP_STARTUP_ID"] == "sid-9")
            for name in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "LISTEN_FDS", "JOURNAL_STREAM"] {
                #expect(probe.environment[name] == "unset", "\(name) leaked into the app")
            }
            #expect(probe.environment["DBUS_SESSION_BUS_ADDRESS"] == f.bus.address, "the app joins the daemon's bus")
            #expect(try await f.pending(Self.launchable)?.id == reply.id)
        }
    }

    @Test("The launch follows an override Deeplinker wrote back to the installed entry, never into the daemon")
    func overrideIsFollowedToTheInstalledEntry() async throws {
        try await Self.withLaunchWorld(launch: "\"desktop\"") { f, launched in
            let installed = f.root + "/share/applications/\(Self.launchable).desktop"
            try TestFiles.write("""
                [Desktop Entry]
                Type=Application
                Name=Launchable
                Exec=/nonexistent/deeplinker launch \(Self.launchable)
                X-Deeplinker-Source=\(installed)
                """, to: f.dataHome + "/applications/\(Self.launchable).desktop")
            _ = try await f.openURL(Self.launchable, "launchable://page/1")
            let probe = try await launched.first { _ in true }
            #expect(probe.argv == ["--open", "launchable://page/1"])
        }
    }

    @Test("With org.freedesktop.systemd1 on the bus the launched process is moved into app-deeplinker-<id>-<random>.scope")
    func launchedProcessMovesIntoATransientScope() async throws {
        try await Self.withLaunchWorld { f, launched in
            let systemd = try await SystemdStandIn(f)
            defer { systemd.stop() }
            _ = try await f.openURL(Self.launchable, "launchable://home")
            let probe = try await launched.first { _ in true }
            let unit = try await systemd.units.first { _ in true }
            #expect(unit.mode == "fail")
            #expect(unit.name.hasPrefix("app-deeplinker-com.test.Launchable-") && unit.name.hasSuffix(".scope"))
            #expect(unit.pids.map(String.init) == [probe.pid])
        }
    }
}

/// Apps' bus names are watched one `arg0` rule each, also for apps a reload adds.
@Suite struct NameWatchingTests {
    @Test("an app added by Reload is watched when Reload answers: its owner makes it inactive")
    func appAddedByReloadIsWatched() async throws {
        try await DaemonFixture.withDaemon(routeFiles: ["com.test.First": TestRouteFiles.minimal(scheme: "first")]) { f in
            try f.writeRouteFile("com.test.Second", TestRouteFiles.minimal(scheme: "second"))
            try await f.call("Reload")
            let app = try await f.standIn("com.test.Second")
            #expect(try await app.stateSeenByDaemon() == "inactive")
            app.close()
        }
    }
}
