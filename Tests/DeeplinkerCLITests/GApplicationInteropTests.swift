import DBusKit
import DeeplinkerClient
import Foundation
import Testing
import DeeplinkerTestSupport

/// A real `Gio.Application` with an action named after the target (parameter type `a{ss}`) and no
/// Deeplinker code in its delivery path receives a pending route once it becomes active.
@Suite struct GApplicationInteropTests {
    /// The app: registers `com.bestrecipes.App`, defines the `recipe` action, and on registration
    /// emits the lifecycle signal `BecameActive` on its object path (the lifecycle protocol).
    static let script = #"""
        import sys
        from gi.repository import Gio, GLib

        app = Gio.Application(application_id="com.bestrecipes.App", flags=Gio.ApplicationFlags.FLAGS_NONE)

        def on_recipe(action, parameter):
            params = parameter.unpack()
            print("recipe " + " ".join(f"{k}={params[k]}" for k in sorted(params)), flush=True)

        action = Gio.SimpleAction.new("recipe", GLib.VariantType.new("a{ss}"))
        action.connect("activate", on_recipe)
        app.add_action(action)

        def on_activate(application):
            print("registered", flush=True)
            application.get_dbus_connection().emit_signal(
                None, application.get_dbus_object_path(), "org.deeplinker.Lifecycle1", "BecameActive", None)

        app.connect("activate", on_activate)
        app.hold()
        sys.exit(app.run([]))
        """#

    @Test func gioApplicationReceivesThePendingRoute() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let opened = try await f.run(["open", "bestrecipes://recipe/12?country=FR"])
            #expect(opened.status == 0, "\(opened.stderr)")
            let app = try TestProcess(
                executable: "/usr/bin/python3", arguments: ["-c", Self.script],
                environment: f.clientEnvironment(["DBUS_SESSION_BUS_ADDRESS": f.bus.address]))
            defer { app.stop() }
            try await app.waitForLine(containing: "registered")
            let line = try await app.waitForLine(containing: "recipe ")
            #expect(line == "recipe country=FR id=12")
            #expect(try await f.run(["pending", "com.bestrecipes.App"]).stdout == "nothing pending for com.bestrecipes.App\n")
            let history = try await f.run(["history", "com.bestrecipes.App", "--json"])
            #expect(history.stdout.contains(#""status":"delivered""#))
        }
    }
}
