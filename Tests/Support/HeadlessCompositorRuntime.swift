import DBusKit
import TaskThreads
import Foundation

/// What a headless Wayland compositor under test (``GnomeShellSession``, ``KWinSession``) runs in:
/// a runtime directory of its own (0700), a throwaway system bus in it (the compositor asks logind
/// there), a connection to the test's session bus, and the GTK windows opened on it. ``stop()``
/// ends all of them and removes the directory.
final class HeadlessCompositorRuntime: Sendable {
    let directory: String
    let busAddress: String
    let connection: DBusConnection
    private let systemBus: TestProcess
    private let windows = LockedValue<[TestProcess]>([])

    /// Makes `$TMPDIR/<prefix>-<random>`, starts the system bus in it and connects to `busAddress`.
    init(prefix: String, busAddress: String) async throws {
        directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(12))")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o700)
        self.busAddress = busAddress
        systemBus = try TestProcess(
            executable: "/usr/bin/dbus-daemon",
            arguments: ["--session", "--nofork", "--print-address", "--address=unix:path=\(directory)/system_bus_socket"],
            environment: ProcessInfo.processInfo.environment)
        try await systemBus.waitForLine(containing: "unix:")
        connection = try DBusConnection(address: busAddress)
    }

    /// The environment both compositors and their Wayland clients share: no X11 or sway, this
    /// runtime directory and display, both buses, GTK on Wayland without the accessibility bus.
    func environment(waylandDisplay: String, home: String, desktop: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "SWAYSOCK"] { environment[key] = nil }
        environment["XDG_RUNTIME_DIR"] = directory
        environment["WAYLAND_DISPLAY"] = waylandDisplay
        environment["GDK_BACKEND"] = "wayland"
        environment["HOME"] = home
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(directory)/system_bus_socket"
        environment["XDG_CURRENT_DESKTOP"] = desktop
        environment["NO_AT_BRIDGE"] = "1"
        return environment
    }

    /// A GTK3 window from ``SwaySession/windowScript`` with these arguments (`application ID` or
    /// `bare NAME`); returns once GTK has shown it. ``stop()`` or ``closeWindows()`` ends it.
    func openWindow(_ arguments: [String], environment: [String: String]) async throws -> TestProcess {
        let process = try TestProcess(
            executable: "/usr/bin/python3", arguments: ["-c", SwaySession.windowScript] + arguments, environment: environment)
        windows.withLock { $0.append(process) }
        try await process.waitForLine(containing: "window shown")
        return process
    }

    /// Ends every window opened so far.
    func closeWindows() {
        for window in windows.withLock({ current in defer { current = [] }; return current }) { window.stop() }
    }

    /// Ends the windows, then `compositor` (if any), then the system bus; closes the connection and
    /// removes the directory.
    func stop(compositor: TestProcess?) {
        closeWindows()
        compositor?.stop()
        systemBus.stop()
        connection.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
