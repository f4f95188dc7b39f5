import DBusKit
import Foundation
import Testing
import DeeplinkerTestSupport

/// Real, unmodified Debian apps under Xvfb receive routes in their own terms (SPEC §3 Delivery):
/// GNOME Text Editor (GTK 4) through its own actions — `new-window` with no parameter,
/// `style-scheme` with a string — and Mousepad (GTK 3) through `Open` with a URI from the route
/// file's `[open]` table. Neither has a line of Deeplinker in it.
@Suite(.serialized) struct UnmodifiedAppTests {
    static let editor = "org.gnome.TextEditor"
    static let mousepad = "org.xfce.mousepad"

    /// GNOME Text Editor's route file: parameterless and typed actions, plus two it cannot take
    /// (`remove-recent` takes `(ss)`; it has no `print-everything`).
    static let editorRoutes = """
        name = "Text Editor"
        schemes = ["editor"]
        ready = "name"
        dedupe-window = "0"

        [targets]
        new-window = {}
        style-scheme = { scheme = "string" }
        remove-recent = { path = "string" }
        print-everything = {}

        [[routes]]
        path = "/new-window"
        target = "new-window"

        [[routes]]
        path = "/scheme/:scheme"
        target = "style-scheme"

        [[routes]]
        path = "/forget/:path"
        target = "remove-recent"

        [[routes]]
        path = "/print"
        target = "print-everything"
        """

    /// Mousepad's route file: launched from its desktop entry, ready once it owns its name.
    static func mousepadRoutes(notes: String) -> String {
        FirstLinkRealAppTests.openRoutes(scheme: "notes", ready: "name", launch: "desktop", notes: notes)
    }

    /// What an app needs under Xvfb: the display, a home of its own, settings in memory and (GTK 4)
    /// the cairo renderer.
    static func appEnvironment(_ x: X11Session, home: String) -> [String: String] {
        x.environment(["HOME": home, "GSETTINGS_BACKEND": "memory", "GSK_RENDERER": "cairo", "XDG_DATA_DIRS": "/usr/local/share:/usr/share"])
    }

    @Test func textEditorTakesRoutesIntoItsOwnActions() async throws {
        try await X11Session.with { x in
            let home = try TemporaryDirectory(prefix: "deeplinker-editor-home")
            defer { home.remove() }
            let environment = Self.appEnvironment(x, home: home.path)
            try await DaemonFixture.withDaemon(routeFiles: [Self.editor: Self.editorRoutes], startDaemon: false) { f in
                // Bus activation as the desktop does it: the package's own service file, and the
                // session's display in the bus's activation environment.
                try FileManager.default.copyItem(
                    atPath: "/usr/share/dbus-1/services/\(Self.editor).service", toPath: "\(f.serviceDir)/\(Self.editor).service")
                try await Self.reloadBus(f, environment: environment)
                let daemon = try await f.spawnDaemonProcess(environment: environment)
                let windows = try WindowList(x)
                defer { windows.stop() }

                // Not running: the link starts it by Activate (its first window), and the route
                // arrives once (new-window adds one).
                let first = try await Self.open(f, "editor://new-window")
                try await f.waitStatus(first, "delivered")
                try await windows.wait(named: "Text Editor", count: 2)
                // Running: the route arrives (Activate presents the window, new-window adds one).
                let second = try await Self.open(f, "editor://new-window")
                try await f.waitStatus(second, "delivered")
                try await windows.wait(named: "Text Editor", count: 3)
                // The same link again: a second delivery (dedupe-window = "0").
                let third = try await Self.open(f, "editor://new-window")
                #expect(third != second)
                try await f.waitStatus(third, "delivered")
                try await windows.wait(named: "Text Editor", count: 4)
                let proxy = try f.proxy()
                defer { proxy.connection.close() }
                let details = try await proxy.invocation(id: first)
                #expect(details.status == "delivered" && details.attempts == 1 && details.detail.isEmpty)

                // A typed action: style-scheme takes one string, the target's only parameter.
                let scheme = try await Self.open(f, "editor://scheme/classic")
                try await f.waitStatus(scheme, "delivered")
                #expect(try await Self.actionState(f, "style-scheme") == "classic")

                // Refusals: failed at once, naming the action and its type.
                let unfillable = try await Self.open(f, "editor://forget/notes")
                let change = try await f.waitStatus(unfillable, "failed")
                #expect(change.detail.contains("action \"remove-recent\" takes type (ss)"), "\(change.detail)")
                #expect(!change.detail.contains("notes"), "never a parameter value")
                let missing = try await Self.open(f, "editor://print")
                #expect(try await f.waitStatus(missing, "failed").detail.contains("no action \"print-everything\""))
                try await daemon.waitForErrorLine(containing: "action \"remove-recent\" takes type (ss)")

                let shown = try await f.run(["show", unfillable])
                #expect(shown.status == 0, "\(shown.stderr)")
                #expect(shown.stdout.contains("status:     failed"))
                #expect(shown.stdout.contains("detail:     action \"remove-recent\" takes type (ss), which a route cannot fill"))
                let history = try await f.run(["history", Self.editor, "--json"])
                let rows = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])
                let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0["invocation_id"] as? String ?? "", $0) })
                #expect((byID[unfillable]?["detail"] as? String)?.contains("takes type (ss)") == true)
                #expect((byID[missing]?["detail"] as? String)?.contains("no action \"print-everything\"") == true)
                #expect(byID[first]?["detail"] as? String == "")
                #expect(rows.count { $0["status"] as? String == "delivered" } == 4, "each route arrived once")
            }
        }
    }

    @Test func mousepadOpensTheURIOfTheOpenTemplate() async throws {
        try await X11Session.with { x in
            let home = try TemporaryDirectory(prefix: "deeplinker-mousepad-home")
            defer { home.remove() }
            let notes = home.appending("notes")
            try FileManager.default.createDirectory(atPath: notes, withIntermediateDirectories: true)
            for name in ["shopping", "todo"] { try "\(name)\n".write(toFile: "\(notes)/\(name).txt", atomically: true, encoding: .utf8) }
            let environment = Self.appEnvironment(x, home: home.path)
            try await DaemonFixture.withDaemon(routeFiles: [Self.mousepad: Self.mousepadRoutes(notes: notes)], startDaemon: false) { f in
                let checked = try await f.run(["check", "\(f.configDir)/\(Self.mousepad).toml"], bus: false)
                #expect(checked.status == 0, "\(checked.output)")
                let explained = try await f.run(["route", Self.mousepad, "notes://open/shopping", "--offline", "--config-dir", f.configDir])
                #expect(explained.stdout.contains("opens: file://\(notes)/shopping.txt"), "\(explained.output)")
                try await f.spawnDaemonProcess(environment: environment)
                let windows = try WindowList(x)
                defer { windows.stop() }
                // Every call of org.freedesktop.Application on the bus, in bus order.
                let monitor = try TestProcess(
                    executable: "/usr/bin/dbus-monitor", arguments: ["--address", f.bus.address, "interface='org.freedesktop.Application'"],
                    environment: f.clientEnvironment())
                defer { monitor.stop() }
                try await monitor.waitForLine(containing: "member=NameLost")

                // Not running: the link starts Mousepad from its desktop entry (Exec=mousepad %U,
                // without the link's URL) and the route arrives by Open.
                let first = try await Self.open(f, "notes://open/shopping")
                try await f.waitStatus(first, "delivered")
                try await windows.waitForTitle(matching: "shopping\\.txt - Mousepad")
                // Running: the route arrives.
                let second = try await Self.open(f, "notes://open/todo")
                try await f.waitStatus(second, "delivered")
                try await windows.waitForTitle(matching: "todo\\.txt - Mousepad")
                // The same link again: a second delivery (dedupe-window = "0").
                let third = try await Self.open(f, "notes://open/todo")
                #expect(third != second)
                try await f.waitStatus(third, "delivered")
                // Never raised with Activate first (an editor opens an empty document for it): the
                // three Opens are the only calls it got.
                try await monitor.stdoutLines.wait(count: 3, where: { $0.contains("member=Open") })
                #expect(monitor.stdoutLines.count { $0.contains("member=Activate") } == 0, "\(monitor.stdout)")
                // Launched from its desktop entry with %U dropped: the link's URL is not on its command line.
                #expect(try await windows.commandLine(ofWindowNamed: "todo\\.txt - Mousepad") == ["mousepad"])
                let proxy = try f.proxy()
                defer { proxy.connection.close() }
                let history = try await proxy.history(appID: Self.mousepad)
                #expect(history.map(\.status) == ["delivered", "delivered", "delivered"])
                let details = try await proxy.invocation(id: first)
                #expect(details.attempts == 1 && details.url == "notes://open/shopping")
            }
        }
    }

    /// `deeplinker open URL`: the invocation id.
    static func open(_ f: DaemonFixture, _ url: String) async throws -> String {
        let result = try await f.run(["open", url, "--json"])
        guard result.status == 0, let id = try DaemonFixture.json(result.stdout)["invocation_id"] as? String else {
            throw DBusError.failed("deeplinker open \(url): \(result.output)")
        }
        return id
    }

    /// The state of one of the editor's actions, from `org.gtk.Actions.Describe`.
    static func actionState(_ f: DaemonFixture, _ action: String) async throws -> String? {
        let reply = try await f.client.call(
            destination: editor, path: "/org/gnome/TextEditor", interface: "org.gtk.Actions", member: "Describe", arguments: [.string(action)])
        return reply.first?.structureFields?[2].arrayElements?.first?.stringValue
    }

    /// Puts the app's display and home into the bus's activation environment and rereads its
    /// service files.
    static func reloadBus(_ f: DaemonFixture, environment: [String: String]) async throws {
        let keys = ["DISPLAY", "HOME", "GSETTINGS_BACKEND", "GSK_RENDERER", "GDK_BACKEND", "NO_AT_BRIDGE", "XDG_DATA_DIRS"]
        _ = try await f.client.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "UpdateActivationEnvironment", arguments: [.stringDictionary(environment.filter { keys.contains($0.key) })])
        _ = try await f.client.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "ReloadConfig")
    }
}

/// The top-level windows of an X11 session as the window manager lists them (`_NET_CLIENT_LIST`,
/// followed with `xprop -spy`), so a test waits for a window instead of sleeping.
struct WindowList: Sendable {
    let x: X11Session
    let spy: TestProcess

    init(_ x: X11Session) throws {
        self.x = x
        spy = try TestProcess(
            executable: "/usr/bin/stdbuf", arguments: ["-oL", "/usr/bin/xprop", "-root", "-spy", "_NET_CLIENT_LIST"],
            environment: x.environment())
    }

    func stop() { spy.stop() }

    /// The titles of the mapped client windows.
    func titles() async throws -> [String] {
        let result = try await TestProcess.run(
            "/usr/bin/xdotool", ["search", "--onlyvisible", "--name", ".", "getwindowname", "%@"], environment: x.environment())
        return result.lines
    }

    /// Waits until `count` windows the window manager manages have `named` in their title, and
    /// expects no more. Each change of the client list is one line of the spy (the first is the
    /// list when it started), read in order; a window is on it once it is managed, titled.
    func wait(named: String, count: Int) async throws {
        while true {
            let line = try await spy.stdoutLines.next(timeout: .seconds(30))
            var titles: [String] = []
            for id in Self.windowIDs(line) {
                let result = try await TestProcess.run("/usr/bin/xdotool", ["getwindowname", id], environment: x.environment())
                titles.append(result.stdout.trimmingCharacters(in: .newlines))
            }
            let matching = titles.count(where: { $0.contains(named) })
            if matching >= count {
                #expect(matching == count, "\(titles)")
                return
            }
        }
    }

    /// The window ids of one `_NET_CLIENT_LIST(WINDOW): window id # 0x…, 0x…` line.
    static func windowIDs(_ line: String) -> [String] {
        guard let hash = line.firstIndex(of: "#") else { return [] }
        return line[line.index(after: hash)...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("0x") }
    }

    /// The command line of the process that shows the window whose title matches `pattern` (its `_NET_WM_PID`).
    func commandLine(ofWindowNamed pattern: String) async throws -> [String] {
        let result = try await TestProcess.run(
            "/usr/bin/xdotool", ["search", "--onlyvisible", "--name", pattern, "getwindowpid", "%1"], environment: x.environment())
        let pid = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let data = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Waits until a mapped window's title matches `pattern` (a title can change without a new
    /// window: xdotool's own `--sync` waits for it).
    func waitForTitle(matching pattern: String) async throws {
        let result = try await TestProcess.run(
            "/usr/bin/timeout", ["30", "/usr/bin/xdotool", "search", "--sync", "--onlyvisible", "--name", pattern], environment: x.environment())
        guard result.status == 0 else { throw DBusError.failed("no window titled \(pattern): \(try await titles())") }
    }
}
