import DBusKit
import DeeplinkerClient
import Foundation
import Testing
import DeeplinkerTestSupport

/// `ready = "name"` end to end (SPEC §6 "Readiness"): a real `Gio.Application` with an action and
/// no Deeplinker code at all (no lifecycle signal) gets its routes: D-Bus-activated by a link, or
/// raised first when it already runs.
@Suite struct ReadyByNameTests {
    static let app = TestRouteFiles.recipes

    /// The app. Its only test hook: each `activate` and each action it handles is also announced
    /// as `org.deeplinker.Test1.Received` (the fixture records those), with the activation token
    /// GApplication passed to `before_emit`. Under D-Bus activation it joins the starter's bus.
    static let script = #"""
        import os, sys
        if "DBUS_STARTER_ADDRESS" in os.environ:
            os.environ["DBUS_SESSION_BUS_ADDRESS"] = os.environ["DBUS_STARTER_ADDRESS"]
        from gi.repository import Gio, GLib

        class App(Gio.Application):
            token = ""
            def do_before_emit(self, platform_data):
                self.token = platform_data.unpack().get("activation-token", "")
                Gio.Application.do_before_emit(self, platform_data)

        app = App(application_id="com.bestrecipes.App", flags=Gio.ApplicationFlags.FLAGS_NONE)

        def announce(target, params):
            app.get_dbus_connection().emit_signal(
                None, app.get_dbus_object_path(), "org.deeplinker.Test1", "Received",
                GLib.Variant("(ssa{ss}a{ss})", ("com.bestrecipes.App", target, params, {"activation-token": app.token})))

        def on_recipe(action, parameter):
            announce("recipe", parameter.unpack())

        action = Gio.SimpleAction.new("recipe", GLib.VariantType.new("a{ss}"))
        action.connect("activate", on_recipe)
        app.add_action(action)
        app.connect("activate", lambda application: announce("(activate)", {}))
        app.hold()
        sys.exit(app.run(sys.argv))
        """#

    static func routeFile() throws -> String {
        try TestRouteFiles.shipped(app, ["ready": "\"name\"", "launch": "\"dbus\""])
    }

    /// Makes the app bus-activatable on the fixture's bus (a service file, then `ReloadConfig`).
    static func makeActivatable(_ f: DaemonFixture) async throws {
        let path = f.root + "/gio-app.py"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        try "[D-BUS Service]\nName=\(app)\nExec=/usr/bin/python3 \(path) --gapplication-service\n"
            .write(toFile: "\(f.serviceDir)/\(app).service", atomically: true, encoding: .utf8)
        _ = try await f.client.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "ReloadConfig")
    }

    @Test func aStoppedGioApplicationIsActivatedByALinkAndGetsTheRoute() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.app: try Self.routeFile()]) { f in
            try await Self.makeActivatable(f)
            let opened = try await f.run(["open", "bestrecipes://recipe/12?country=FR"])
            #expect(opened.status == 0, "\(opened.stderr)")
            let received = try await f.pythonReceived.first { $0.target == "recipe" }
            #expect(received.parameters == ["id": "12", "country": "FR"])
            let id = try #require(try await f.history(Self.app).first?.id)
            try await f.waitStatus(id, "delivered")
            #expect(try await f.appState(Self.app) == "active")
            // Started by D-Bus activation as the Desktop Entry spec defines it (SPEC §6): the bus
            // starts it for `Activate` (its window), then the route goes to the action.
            #expect(f.pythonReceived.all.map(\.target) == ["(activate)", "recipe"])
        }
    }

    @Test func aRunningGioApplicationIsRaisedFirstThenGetsTheRoute() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.app: try Self.routeFile()]) { f in
            let app = try TestProcess(
                executable: "/usr/bin/python3", arguments: ["-c", Self.script, "--gapplication-service"],
                environment: f.clientEnvironment())
            defer { app.stop() }
            let owner = try await f.client.waitForOwner(Self.app)
            // Active because it owns its name: the bus told the daemon before it answers this call.
            #expect(try await f.appState(Self.app) == "active")
            let opened = try await f.run(["open", "bestrecipes://recipe/7"], environment: ["XDG_ACTIVATION_TOKEN": "token-7"])
            #expect(opened.status == 0, "\(opened.stderr)")
            let both = try await f.pythonReceived.wait(count: 2) { _ in true }
            #expect(both.map(\.target) == ["(activate)", "recipe"], "Activate, then ActivateAction")
            #expect(both.map { $0.platformData["activation-token"] } == ["token-7", "token-7"])
            #expect(both[1].parameters == ["id": "7"])
            #expect(try await f.client.nameOwner(Self.app) == owner)
        }
    }
}
