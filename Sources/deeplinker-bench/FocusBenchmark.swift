import DBusKit
import DeeplinkerProtocol
import FocusWatch
import Foundation
import TaskThreads
import Spawn

/// Focus → delivery: the time from a change of the X11 input focus (`_NET_ACTIVE_WINDOW`, as seen
/// by a watcher of the bench's own on the same display) to the route's `ActivateAction` at the
/// app, through `deeplinker focus-watch` and `SetFocusedApp`, beside the time from a
/// `BecameActive` signal to the same delivery, in the same run. Runs Xvfb + openbox with two bare
/// GTK3 windows; the app's window is found by `StartupWMClass`. Goal: p50 ≤ BecameActive's p50 + 5 ms.
enum FocusBenchmark {
    static let goalExtraMilliseconds = 5.0
    static let appWMClass = "BenchFocusApp"

    static func run(routeFile: String, runs: Int, stateRoot: String?, table: ResultTable) async throws {
        guard let deeplinker = sibling("deeplinker") else { throw DBusError.failed("no deeplinker binary next to deeplinker-bench") }
        for tool in ["/usr/bin/Xvfb", "/usr/bin/openbox", "/usr/bin/xdotool", "/usr/bin/python3"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw DBusError.failed("\(tool) is missing (scripts/setup installs it)")
        }
        let env = try await BenchEnvironment.start(routeFile: routeFile, stateRoot: stateRoot, ready: "focus")
        var children: [ChildProcess] = []
        defer {
            for child in children.reversed() { child.kill() }
        }
        let x = try startX()
        children += x.children
        let dataHome = env.root.appendingPathComponent("xdg-data")
        try FileManager.default.createDirectory(at: dataHome.appendingPathComponent("applications"), withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Bench\nExec=/bin/true\nStartupWMClass=\(appWMClass)\n"
            .write(to: dataHome.appendingPathComponent("applications/\(BenchRouteFile.appID).desktop"), atomically: true, encoding: .utf8)
        let (appWindow, appProcess) = try openWindow(wmClass: appWMClass, display: x.display)
        children.append(appProcess)
        let (otherWindow, otherProcess) = try openWindow(wmClass: "BenchOther", display: x.display)
        children.append(otherProcess)

        // The bench's own view of the focus: when each change was seen.
        let source = try X11FocusSource(display: x.display)
        let seen = LockedValue<[(ContinuousClock.Instant, [String])]>([])
        Thread.detachNewThread { _ = source.run { window in seen.withLock { $0.append((.now, window?.wmClass ?? [])) } } }

        var watchEnvironment = ProcessInfo.processInfo.environment
        watchEnvironment["DISPLAY"] = x.display
        watchEnvironment["XDG_DATA_HOME"] = dataHome.path
        watchEnvironment["WAYLAND_DISPLAY"] = nil
        watchEnvironment["SWAYSOCK"] = nil
        let watcher = try ChildProcess(
            executable: deeplinker, arguments: ["focus-watch", "--backend", "x11", "--bus-address", env.bus.address],
            environment: watchEnvironment, standardOutput: .null, standardError: .inherit)
        children.append(watcher)

        let app = try StandInApp(address: env.bus.address)
        defer { app.close() }
        guard try await app.connection.requestName(BenchRouteFile.appID) == .primaryOwner else { throw DBusError.failed("cannot own the app's name") }
        print("  focus: Xvfb \(x.display) + openbox, focus-watch \(deeplinker), \(runs) runs each")

        let signalSamples = try await measureBecameActive(app: app, env: env, runs: runs)
        let focusSamples = try await measureFocusChange(
            app: app, env: env, runs: runs, focusOther: { try activate(otherWindow, display: x.display) },
            focusApp: {
                let before = ContinuousClock.now
                try activate(appWindow, display: x.display)
                return {
                    guard let changed = seen.withLock({ $0.last { $0.0 >= before && $0.1.contains(appWMClass) }?.0 }) else {
                        throw DBusError.failed("the bench's own watcher did not see the focus change")
                    }
                    return changed
                }
            })
        watcher.kill()
        await env.stop()

        report(
            signalSamples: signalSamples, focusSamples: focusSamples, runs: runs,
            focusRow: "X11 focus change (_NET_ACTIVE_WINDOW) → route delivered, via focus-watch", label: "focus", table: table)
    }

    /// Adds the two rows to `table` (BecameActive → delivery; `focusRow`, focus change → delivery,
    /// against the goal) and prints both p50s and p99s after `label`; shared with the compositors'.
    static func report(signalSamples: [Double], focusSamples: [Double], runs: Int, focusRow: String, label: String, table: ResultTable) {
        let signal = Stats(microseconds: signalSamples)
        let focus = Stats(microseconds: focusSamples)
        table.add(
            "BecameActive signal → route delivered (ActivateAction) p50 / p99, \(runs) runs",
            String(format: "%.2f / %.2f ms", signal.p50 / 1000, signal.p99 / 1000))
        let extra = (focus.p50 - signal.p50) / 1000
        table.add(
            "\(focusRow), p50 / p99, \(runs) runs",
            String(format: "%.2f / %.2f ms", focus.p50 / 1000, focus.p99 / 1000),
            ratio: String(format: "%+.2f ms", extra), goal: String(format: "≤ BecameActive + %.0f ms", goalExtraMilliseconds),
            verdict: Format.verdict(extra <= goalExtraMilliseconds))
        print("  \(label): " + String(format: "focus change → delivery p50 %.2f ms p99 %.2f ms; BecameActive → delivery p50 %.2f ms p99 %.2f ms (%+.2f ms, goal ≤ +%.0f ms)",
                     focus.p50 / 1000, focus.p99 / 1000, signal.p50 / 1000, signal.p99 / 1000, extra, goalExtraMilliseconds))
    }

    /// BecameActive → delivery samples (µs), the first 5 runs left out as warm-up: each run the app
    /// resigns, a URL is opened for it, and it signals `BecameActive`; it ends resigned. Shared by
    /// the X11 and compositor benchmarks.
    static func measureBecameActive(app: StandInApp, env: BenchEnvironment, runs: Int) async throws -> [Double] {
        var samples: [Double] = []
        for i in 0..<(runs + 5) {
            try app.connection.emitSignal(path: app.path, interface: DeeplinkerBus.lifecycleInterface, member: LifecycleSignalName.willResignActive.rawValue)
            try await waitForState("inactive", env, from: app.connection)
            let url = "bestrecipes://recipe/\(i)"
            app.probe.expect(url)
            try await env.openURL(url)
            let start = ContinuousClock.now
            try app.connection.emitSignal(path: app.path, interface: DeeplinkerBus.lifecycleInterface, member: LifecycleSignalName.becameActive.rawValue)
            let arrived = await app.probe.arrival(of: url)
            if i >= 5 { samples.append(Stats.microseconds(start.duration(to: arrived))) }
        }
        try app.connection.emitSignal(path: app.path, interface: DeeplinkerBus.lifecycleInterface, member: LifecycleSignalName.willResignActive.rawValue)
        return samples
    }

    /// Focus change → delivery samples (µs), the first 5 runs left out as warm-up: each run
    /// `focusOther` moves the focus away, a URL is opened for the app, and `focusApp` gives the app
    /// the focus; what it returns is asked, after the delivery, when the change happened.
    static func measureFocusChange(
        app: StandInApp, env: BenchEnvironment, runs: Int, focusOther: () async throws -> Void,
        focusApp: () async throws -> () throws -> ContinuousClock.Instant
    ) async throws -> [Double] {
        var samples: [Double] = []
        for i in 0..<(runs + 5) {
            try await focusOther()
            try await waitForState("inactive", env, from: env.client)
            let url = "bestrecipes://recipe/\(10_000 + i)"
            app.probe.expect(url)
            try await env.openURL(url)
            let changedAt = try await focusApp()
            let arrived = await app.probe.arrival(of: url)
            let changed = try changedAt()
            if i >= 5 { samples.append(Stats.microseconds(changed.duration(to: arrived))) }
        }
        return samples
    }

    /// Asks `GetAppState` from `connection` until it answers `state` (after a signal from the
    /// same connection the first answer already does; after a focus change it takes a moment).
    static func waitForState(_ state: String, _ env: BenchEnvironment, from connection: DBusConnection) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let reply = try await connection.call(
                destination: BenchEnvironment.daemonName, path: BenchEnvironment.daemonPath, interface: BenchEnvironment.daemonInterface,
                member: "GetAppState", arguments: [.string(BenchRouteFile.appID)])
            if reply.first?.stringValue == state { return }
            try await Task.sleep(for: .milliseconds(1))
        }
        throw DBusError.failed("the app never became \(state)")
    }

    /// Xvfb on a display it picks, and openbox once it runs.
    static func startX() throws -> (display: String, children: [ChildProcess]) {
        let server = try ChildProcess(
            executable: "/usr/bin/Xvfb", arguments: ["-displayfd", "1", "-screen", "0", "640x480x24", "-nolisten", "tcp"],
            standardOutput: .pipe, standardError: .null)
        guard let fd = server.standardOutput, let number = readLine(fd) else {
            server.kill()
            throw DBusError.failed("Xvfb did not start")
        }
        let display = ":" + number
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        let spy = try ChildProcess(
            executable: "/usr/bin/stdbuf", arguments: ["-oL", "/usr/bin/xprop", "-root", "-spy"], environment: environment,
            standardOutput: .pipe, standardError: .null)
        let wm = try ChildProcess(executable: "/usr/bin/openbox", arguments: ["--sm-disable"], environment: environment, standardError: .null)
        while let line = spy.standardOutput.flatMap(readLine), !line.contains("_NET_SUPPORTED(ATOM)") {}
        spy.kill()
        return (display, [server, wm])
    }

    /// A bare GTK3 window with `WM_CLASS` (…, `wmClass`); returns its X id once it is mapped.
    static func openWindow(wmClass: String, display: String) throws -> (String, ChildProcess) {
        let script = """
            import gi
            gi.require_version("Gtk", "3.0")
            gi.require_version("GdkX11", "3.0")
            from gi.repository import Gtk, GdkX11
            w = Gtk.Window(title="\(wmClass)")
            w.set_wmclass("\(wmClass.lowercased())", "\(wmClass)")
            w.connect("map-event", lambda w, e: print("window %d" % w.get_window().get_xid(), flush=True))
            w.show_all()
            Gtk.main()
            """
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment["GDK_BACKEND"] = "x11"
        environment["NO_AT_BRIDGE"] = "1"
        let child = try ChildProcess(
            executable: "/usr/bin/python3", arguments: ["-c", script], environment: environment, standardOutput: .pipe, standardError: .null)
        guard let line = child.standardOutput.flatMap(readLine), line.hasPrefix("window ") else {
            child.kill()
            throw DBusError.failed("the GTK window \(wmClass) did not open")
        }
        return (String(line.dropFirst(7)), child)
    }

    static func activate(_ window: String, display: String) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        let child = try ChildProcess(
            executable: "/usr/bin/xdotool", arguments: ["windowactivate", "--sync", window], environment: environment, standardError: .null)
        guard child.waitUntilExit() == .exited(0) else { throw DBusError.failed("xdotool windowactivate \(window) failed") }
    }

    /// One line from `fd` (blocking, byte by byte: only for short start-up handshakes).
    static func readLine(_ fd: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1 {
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// A program built next to this one.
    static func sibling(_ name: String) -> String? {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let path = dir.appendingPathComponent(name).path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }
}
