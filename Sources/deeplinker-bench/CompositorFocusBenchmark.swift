import DBusKit
import DeeplinkerProtocol
import Foundation
import Glibc
import Spawn
import TaskThreads

/// Focus → delivery on a Wayland compositor (`focus --backend gnome|kwin`), beside `BecameActive`
/// → delivery in the same run, like ``FocusBenchmark`` on X11. The app's window is a bare GTK3
/// window whose Wayland app_id is the app id.
/// - gnome: a headless GNOME Shell with the extension `focus@deeplinker.org` (installed by
///   `deeplinker install-gnome-extension`) and the tests' helper extension, whose `ActivateTimed`
///   answers the monotonic time just before mutter moved the focus (the extension is notified
///   inside that call): from then to the delivery.
/// - kwin: a headless kwin_wayland with `deeplinker focus-watch --backend kwin`; a KWin script of
///   the bench's own reports each activation to the bench, as focus-watch's does: from that report
///   to the delivery.
enum CompositorFocusBenchmark {
    enum Compositor: String, Sendable { case gnome, kwin }

    static let otherID = "org.example.BenchOther"

    static func run(_ compositor: Compositor, routeFile: String, runs: Int, stateRoot: String?, table: ResultTable) async throws {
        guard let deeplinker = FocusBenchmark.sibling("deeplinker") else { throw DBusError.failed("no deeplinker binary next to deeplinker-bench") }
        let env = try await BenchEnvironment.start(routeFile: routeFile, stateRoot: stateRoot, ready: "focus")
        var children: [ChildProcess] = []
        defer { for child in children.reversed() { child.kill() } }
        let runtime = env.root.appendingPathComponent("runtime").path
        try FileManager.default.createDirectory(atPath: runtime + "/bin", withIntermediateDirectories: true)
        chmod(runtime, 0o700)
        let systemBus = try ChildProcess(
            executable: "/usr/bin/dbus-daemon", arguments: ["--session", "--nofork", "--print-address", "--address=unix:path=\(runtime)/system_bus"],
            standardOutput: .pipe, standardError: .null)
        children.append(systemBus)
        _ = systemBus.standardOutput.flatMap(FocusBenchmark.readLine)
        let home = env.root.appendingPathComponent("home").path
        var environment = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "SWAYSOCK"] { environment[key] = nil }
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["DBUS_SESSION_BUS_ADDRESS"] = env.bus.address
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(runtime)/system_bus"
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        environment["XDG_DATA_HOME"] = home + "/.local/share"
        environment["GSETTINGS_BACKEND"] = "keyfile"
        environment["NO_AT_BRIDGE"] = "1"
        environment["GTK_A11Y"] = "none"
        environment["GDK_BACKEND"] = "wayland"
        let watch = try DBusConnection(address: env.bus.address)
        defer { watch.close() }

        let app = try StandInApp(address: env.bus.address)
        defer { app.close() }
        guard try await app.connection.requestName(BenchRouteFile.appID) == .primaryOwner else { throw DBusError.failed("cannot own the app's name") }

        let focusOn: (String) async throws -> ContinuousClock.Instant
        var waitUntilSeen: (String) async throws -> Void = { _ in }
        switch compositor {
        case .gnome:
            environment["XDG_CURRENT_DESKTOP"] = "GNOME"
            environment["WAYLAND_DISPLAY"] = "wayland-0"
            guard let helper = repositoryPath("Tests/GnomeShell/focus-test-helper@deeplinker.org") else {
                throw DBusError.failed("the tests' helper extension (Tests/GnomeShell) is not found above deeplinker-bench")
            }
            let extensions = home + "/.local/share/gnome-shell/extensions"
            try FileManager.default.createDirectory(atPath: extensions, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: helper, toPath: extensions + "/focus-test-helper@deeplinker.org")
            try runTool("/usr/bin/gsettings", ["set", "org.gnome.shell", "enabled-extensions", "['focus-test-helper@deeplinker.org']"], environment)
            try runTool(deeplinker, ["install-gnome-extension"], environment)
            children.append(try ChildProcess(
                executable: "/usr/bin/gnome-shell", arguments: ["--headless", "--virtual-monitor", "1280x800", "--wayland", "--no-x11"],
                environment: environment, standardOutput: .null, standardError: .null))
            try await waitForOwner("org.deeplinker.Test.FocusHelper", on: watch)
            let reference = (monotonic: monotonicMicroseconds(), continuous: ContinuousClock.now)
            focusOn = { id in
                let reply = try await watch.call(
                    destination: "org.deeplinker.Test.FocusHelper", path: "/org/deeplinker/Test/FocusHelper",
                    interface: "org.deeplinker.Test.FocusHelper", member: "ActivateTimed", arguments: [.string(id)], timeout: .seconds(20))
                guard case .int64(let at)? = reply.first else { throw DBusError.failed("ActivateTimed gave no time") }
                return reference.continuous + .microseconds(at - reference.monotonic)
            }
            print("  focus: headless GNOME Shell with focus@deeplinker.org, \(runs) runs each")
        case .kwin:
            environment["XDG_CURRENT_DESKTOP"] = "KDE"
            environment["WAYLAND_DISPLAY"] = "wayland-k"
            // The copy has no file capability (see docs/testing.md).
            let kwin = runtime + "/bin/kwin_wayland"
            try FileManager.default.copyItem(atPath: "/usr/bin/kwin_wayland", toPath: kwin)
            children.append(try ChildProcess(
                executable: kwin, arguments: ["--virtual", "--width", "1280", "--height", "800", "--socket", "wayland-k", "--no-lockscreen", "--no-global-shortcuts", "--no-kactivities"],
                environment: environment, standardOutput: .null, standardError: .null))
            try await waitForOwner("org.kde.KWin", on: watch)
            children.append(try ChildProcess(
                executable: deeplinker, arguments: ["focus-watch", "--backend", "kwin"], environment: environment, standardOutput: .null, standardError: .null))
            // The bench's own view of KWin's activations.
            let seen = LockedValue<[(ContinuousClock.Instant, String)]>([])
            try watch.export(DBusObject(path: "/org/deeplinker/Bench", interfaces: [DBusInterface(
                "org.deeplinker.Bench1",
                methods: [DBusMethod("Seen", in: [DBusArgument("id", "s")]) { call in
                    let now = ContinuousClock.now
                    seen.withLock { $0.append((now, call.arguments.first?.stringValue ?? "")) }
                    call.reply()
                }], signals: [], properties: [])]))
            try await loadKWinScript("deeplinker-bench-observer", """
                (workspace.windowActivated || workspace.clientActivated).connect(function (w) {
                    if (w) callDBus("\(watch.uniqueName)", "/org/deeplinker/Bench", "org.deeplinker.Bench1", "Seen", String(w.desktopFileName || w.resourceClass || ""));
                });
                """, runtime: runtime, on: watch)
            waitUntilSeen = { id in
                let deadline = ContinuousClock.now + .seconds(10)
                while !seen.withLock({ $0.contains { $0.1 == id } }) {
                    guard ContinuousClock.now < deadline else { throw DBusError.failed("KWin never activated \(id)") }
                    try await Task.sleep(for: .milliseconds(1))
                }
            }
            var scripts = 0
            focusOn = { id in
                // Already active: KWin would report nothing.
                if let last = seen.withLock({ $0.last }), last.1 == id { return last.0 }
                let before = ContinuousClock.now
                scripts += 1
                try await loadKWinScript("deeplinker-bench-activate-\(scripts)", """
                    (function () {
                        var list = workspace.windowList ? workspace.windowList() : workspace.clientList();
                        for (var i = 0; i < list.length; i++)
                            if (list[i].desktopFileName == "\(id)" || list[i].resourceClass == "\(id)") {
                                if (workspace.windowList) workspace.activeWindow = list[i]; else workspace.activeClient = list[i];
                            }
                    })();
                    """, runtime: runtime, on: watch)
                let deadline = ContinuousClock.now + .seconds(10)
                while ContinuousClock.now < deadline {
                    if let at = seen.withLock({ $0.last { $0.0 >= before && $0.1 == id }?.0 }) { return at }
                    try await Task.sleep(for: .milliseconds(1))
                }
                throw DBusError.failed("the bench's KWin script did not see \(id) activated (it saw \(seen.withLock { $0.map(\.1) }))")
            }
            print("  focus: headless kwin_wayland with focus-watch --backend kwin, \(runs) runs each")
        }
        children.append(try openWindow(BenchRouteFile.appID, environment))
        children.append(try openWindow(otherID, environment))
        if compositor == .kwin {
            // KWin focuses each new window: the last one's activation comes first.
            try await waitUntilSeen(otherID)
        }
        _ = try await focusOn(BenchRouteFile.appID)
        try await FocusBenchmark.waitForState("active", env, from: env.client)

        // BecameActive → delivery (the app reports its own state; the focus stays on the other window).
        _ = try await focusOn(otherID)
        try await FocusBenchmark.waitForState("inactive", env, from: env.client)
        let signalSamples = try await FocusBenchmark.measureBecameActive(app: app, env: env, runs: runs)

        // Focus change → delivery.
        let focusSamples = try await FocusBenchmark.measureFocusChange(
            app: app, env: env, runs: runs, focusOther: { _ = try await focusOn(otherID) },
            focusApp: {
                let changed = try await focusOn(BenchRouteFile.appID)
                return { changed }
            })
        await env.stop()

        FocusBenchmark.report(
            signalSamples: signalSamples, focusSamples: focusSamples, runs: runs,
            focusRow: (compositor == .gnome ? "GNOME Shell focus change (extension)" : "KWin activation (focus-watch's KWin script)")
                + " → route delivered",
            label: "focus (\(compositor.rawValue))", table: table)
    }

    static func monotonicMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }

    /// A bare GTK3 Wayland window whose app_id is `id` (the program name); returns once it is shown.
    static func openWindow(_ id: String, _ environment: [String: String]) throws -> ChildProcess {
        let script = """
            import gi
            from gi.repository import GLib
            GLib.set_prgname("\(id)")
            gi.require_version("Gtk", "3.0")
            from gi.repository import Gtk
            w = Gtk.Window(title="\(id)")
            w.connect("map-event", lambda w, e: print("window shown", flush=True))
            w.show_all()
            Gtk.main()
            """
        let child = try ChildProcess(
            executable: "/usr/bin/python3", arguments: ["-c", script], environment: environment, standardOutput: .pipe, standardError: .null)
        guard child.standardOutput.flatMap(FocusBenchmark.readLine) == "window shown" else {
            child.kill()
            throw DBusError.failed("the GTK window \(id) did not open")
        }
        return child
    }

    static func loadKWinScript(_ name: String, _ text: String, runtime: String, on connection: DBusConnection) async throws {
        let path = "\(runtime)/\(name).js"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        _ = try await connection.call(
            destination: "org.kde.KWin", path: "/Scripting", interface: "org.kde.kwin.Scripting", member: "loadScript",
            arguments: [.string(path), .string(name)], timeout: .seconds(10))
        _ = try await connection.call(
            destination: "org.kde.KWin", path: "/Scripting", interface: "org.kde.kwin.Scripting", member: "start", timeout: .seconds(10))
    }

    static func waitForOwner(_ name: String, on connection: DBusConnection) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if try await connection.nameOwner(name) != nil { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw DBusError.failed("\(name) did not appear on the bus")
    }

    static func runTool(_ tool: String, _ arguments: [String], _ environment: [String: String]) throws {
        let child = try ChildProcess(executable: tool, arguments: arguments, environment: environment, standardOutput: .null, standardError: .null)
        guard child.waitUntilExit() == .exited(0) else { throw DBusError.failed("\(tool) \(arguments.joined(separator: " ")) failed") }
    }

    /// A file or folder of the checkout the bench was built in (walking up from the binary).
    static func repositoryPath(_ relative: String) -> String? {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }
}
