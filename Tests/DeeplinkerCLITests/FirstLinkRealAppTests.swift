import DBusKit
import Foundation
import Testing
import DeeplinkerTestSupport

/// The first link to a real, unmodified Debian app that is not running (SPEC §6): it comes up
/// with a visible window, the window takes the focus, and the route is delivered once; an `open`
/// app is started by its route's own `Open`, never by `Activate` first. Under Xvfb with openbox and
/// `deeplinker focus-watch`.
@Suite(.serialized) struct FirstLinkRealAppTests {
    static let editor = UnmodifiedAppTests.editor
    static let mousepad = UnmodifiedAppTests.mousepad
    static let gedit = "org.gnome.gedit"

    /// GNOME Text Editor's route file: ready by focus, launched as `auto` (it is D-Bus activatable),
    /// a route into an action that opens no window of its own.
    static let editorRoutes = """
        name = "Text Editor"
        schemes = ["editor"]
        ready = "focus"
        launch = "auto"

        [targets]
        style-scheme = { scheme = "string" }

        [[routes]]
        path = "/scheme/:scheme"
        target = "style-scheme"
        """

    /// An `open` app's route file: `file://NOTES/{name}.txt`.
    static func openRoutes(scheme: String, ready: String, launch: String = "auto", notes: String) -> String {
        """
        name = "Notes"
        schemes = ["\(scheme)"]
        ready = "\(ready)"
        launch = "\(launch)"
        delivery = "open"
        dedupe-window = "0"

        [targets]
        note = { name = "string" }

        [[routes]]
        path = "/open/:name"
        target = "note"

        [open]
        note = "file://\(notes)/{name}.txt"
        """
    }

    /// Copies the app's own D-Bus service file to the fixture's bus and gives the bus the app's
    /// environment, as a desktop session's bus has.
    static func makeActivatable(_ appID: String, _ f: DaemonFixture, environment: [String: String]) async throws {
        try FileManager.default.copyItem(atPath: "/usr/share/dbus-1/services/\(appID).service", toPath: "\(f.serviceDir)/\(appID).service")
        try await UnmodifiedAppTests.reloadBus(f, environment: environment)
    }

    /// `focus-watch` on the session's display, and the first report it made (the desktop with
    /// nothing focused yet).
    static func focusWatch(_ f: DaemonFixture, _ x: X11Session) async throws -> TestProcess {
        let watch = try f.spawn(["focus-watch", "--backend", "x11", "--verbose"], environment: ["DISPLAY": x.display, "WAYLAND_DISPLAY": "", "SWAYSOCK": ""])
        try await watch.waitForLine(containing: "reported")
        return watch
    }

    /// Notes files under a home of the test's own.
    static func notes(in home: TemporaryDirectory) throws -> String {
        let notes = home.appending("notes")
        try FileManager.default.createDirectory(atPath: notes, withIntermediateDirectories: true)
        try "shopping\n".write(toFile: "\(notes)/shopping.txt", atomically: true, encoding: .utf8)
        return notes
    }

    /// Every call of `org.freedesktop.Application` on the fixture's bus, in bus order.
    static func applicationCalls(_ f: DaemonFixture) async throws -> TestProcess {
        let monitor = try TestProcess(
            executable: "/usr/bin/dbus-monitor", arguments: ["--address", f.bus.address, "interface='org.freedesktop.Application'"],
            environment: f.clientEnvironment())
        try await monitor.waitForLine(containing: "member=NameLost")
        return monitor
    }

    /// The only invocation of `appID`: delivered, in one attempt.
    static func expectDeliveredOnce(_ f: DaemonFixture, _ appID: String, _ id: String) async throws {
        let proxy = try f.proxy()
        defer { proxy.connection.close() }
        #expect(try await proxy.history(appID: appID).map(\.status) == ["delivered"])
        let details = try await proxy.invocation(id: id)
        #expect(details.attempts == 1 && details.detail.isEmpty, "\(details)")
    }

    @Test func textEditorStartedByALinkComesUpWithAFocusedWindowAndGetsTheRouteOnce() async throws {
        try await X11Session.with { x in
            let home = try TemporaryDirectory(prefix: "deeplinker-editor-home")
            defer { home.remove() }
            let environment = UnmodifiedAppTests.appEnvironment(x, home: home.path)
            try await DaemonFixture.withDaemon(routeFiles: [Self.editor: Self.editorRoutes], startDaemon: false) { f in
                try await Self.makeActivatable(Self.editor, f, environment: environment)
                try await f.spawnDaemonProcess(environment: environment)
                let watch = try await Self.focusWatch(f, x)
                let windows = try WindowList(x)
                defer { windows.stop() }
                let calls = try await Self.applicationCalls(f)
                defer { calls.stop() }

                let id = try await UnmodifiedAppTests.open(f, "editor://scheme/classic")
                // Activate starts it with a window (not a windowless --gapplication-service), the
                // window takes the focus, and the route goes to the action once.
                try await windows.wait(named: "Text Editor", count: 1)
                try await watch.waitForLine(containing: "reported \(Self.editor)")
                try await f.waitStatus(id, "delivered")
                #expect(try await UnmodifiedAppTests.actionState(f, "style-scheme") == "classic")
                try await Self.expectDeliveredOnce(f, Self.editor, id)
                try await calls.stdoutLines.wait(count: 1, where: { $0.contains("member=ActivateAction") })
                let members = calls.stdoutLines.all.compactMap { line in line.split(separator: " ").first { $0.hasPrefix("member=") } }
                    .filter { ["member=Activate", "member=ActivateAction", "member=Open"].contains($0) }
                #expect(members == ["member=Activate", "member=ActivateAction"], "\(members)")
            }
        }
    }

    @Test func mousepadStartedByALinkFromItsExecComesUpFocusedAndGetsTheRouteOnce() async throws {
        try await X11Session.with { x in
            let home = try TemporaryDirectory(prefix: "deeplinker-mousepad-home")
            defer { home.remove() }
            let notes = try Self.notes(in: home)
            let environment = UnmodifiedAppTests.appEnvironment(x, home: home.path)
            let routes = Self.openRoutes(scheme: "notes", ready: "focus", notes: notes)
            try await DaemonFixture.withDaemon(routeFiles: [Self.mousepad: routes], startDaemon: false) { f in
                try await f.spawnDaemonProcess(environment: environment)
                let watch = try await Self.focusWatch(f, x)
                let windows = try WindowList(x)
                defer { windows.stop() }

                // Not bus-activatable: started from its desktop entry's Exec; its window takes the
                // focus, which makes it active, and the route arrives by Open.
                let id = try await UnmodifiedAppTests.open(f, "notes://open/shopping")
                try await watch.waitForLine(containing: "reported \(Self.mousepad)")
                try await f.waitStatus(id, "delivered")
                try await windows.waitForTitle(matching: "shopping\\.txt - Mousepad")
                try await Self.expectDeliveredOnce(f, Self.mousepad, id)
            }
        }
    }

    @Test func geditWithOpenDeliveryIsStartedByTheOpenOfItsRouteWithNoActivateBeforeIt() async throws {
        try await X11Session.with { x in
            let home = try TemporaryDirectory(prefix: "deeplinker-gedit-home")
            defer { home.remove() }
            let notes = try Self.notes(in: home)
            let environment = UnmodifiedAppTests.appEnvironment(x, home: home.path)
            let routes = Self.openRoutes(scheme: "jot", ready: "focus", notes: notes)
            try await DaemonFixture.withDaemon(routeFiles: [Self.gedit: routes], startDaemon: false) { f in
                try await Self.makeActivatable(Self.gedit, f, environment: environment)
                try await f.spawnDaemonProcess(environment: environment)
                let windows = try WindowList(x)
                defer { windows.stop() }
                let calls = try await Self.applicationCalls(f)
                defer { calls.stop() }

                let id = try await UnmodifiedAppTests.open(f, "jot://open/shopping")
                try await f.waitStatus(id, "delivered")
                try await windows.wait(named: "shopping.txt", count: 1)
                try await Self.expectDeliveredOnce(f, Self.gedit, id)
                // The route's Open, addressed to the name, started gedit: nothing called Activate.
                try await calls.stdoutLines.wait(count: 1, where: { $0.contains("member=Open") })
                #expect(calls.stdoutLines.count { $0.contains("member=Activate") } == 0, "\(calls.stdout)")
                let open = try #require(calls.stdoutLines.all.first { $0.contains("member=Open") })
                #expect(open.contains("destination=\(Self.gedit)"), "\(open)")
            }
        }
    }
}
