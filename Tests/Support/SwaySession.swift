import DBusKit
import TaskThreads
import Foundation

/// A headless sway (`WLR_BACKENDS=headless`, pixman rendering) for the focus tests, with real GTK3
/// Wayland windows. sway refuses to start as root, so under root it runs as `nobody` in a runtime
/// directory of its own (root's clients can still use its sockets). Only ``with(_:)`` makes one.
public final class SwaySession: Sendable {
    public let runtimeDirectory: String
    /// The IPC socket (`SWAYSOCK`).
    public let socket: String
    public let waylandDisplay = "wayland-1"
    public let compositor: TestProcess
    private let windows = LockedValue<[TestProcess]>([])

    /// Whether sway is installed here.
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/sway") }

    public static func with<T>(_ body: (SwaySession) async throws -> T) async throws -> T {
        let session = try await SwaySession()
        defer { session.stopAll() }
        return try await body(session)
    }

    private init() async throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("deeplinker-sway-\(UUID().uuidString.prefix(12))")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = directory + ".conf"
        try "output HEADLESS-1 resolution 800x600\n".write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o644)
        let root = getuid() == 0
        if root { chown(directory, 65534, 65534) }
        chmod(directory, 0o700)
        runtimeDirectory = directory
        var environment = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK"] { environment[key] = nil }
        environment["XDG_RUNTIME_DIR"] = directory
        environment["HOME"] = directory
        environment["WLR_BACKENDS"] = "headless"
        environment["WLR_LIBINPUT_NO_DEVICES"] = "1"
        environment["WLR_RENDERER"] = "pixman"
        let sway = ["/usr/bin/sway", "-V", "-c", config]
        compositor = root
            ? try TestProcess(executable: "/usr/bin/setpriv", arguments: ["--reuid=65534", "--regid=65534", "--clear-groups"] + sway, environment: environment)
            : try TestProcess(executable: sway[0], arguments: Array(sway.dropFirst()), environment: environment)
        try await compositor.waitForErrorLine(containing: "Running compositor on wayland display")
        let entries = try FileManager.default.contentsOfDirectory(atPath: directory)
        guard let ipc = entries.first(where: { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }) else {
            throw X11SessionError("sway made no IPC socket in \(directory): \(entries)")
        }
        socket = directory + "/" + ipc
    }

    private func stopAll() {
        for window in windows.withLock({ $0 }) { window.stop() }
        compositor.stop()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
        try? FileManager.default.removeItem(atPath: runtimeDirectory + ".conf")
    }

    /// The environment of a Wayland client of this sway.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["WAYLAND_DISPLAY"] = waylandDisplay
        environment["SWAYSOCK"] = socket
        environment["GDK_BACKEND"] = "wayland"
        environment["NO_AT_BRIDGE"] = "1"
        return environment.merging(extra) { $1 }
    }

    /// A `Gtk.Application` window whose Wayland `app_id` is `appID`, announced like
    /// ``X11Session``'s; returns once GTK has shown it (sway may map it a moment later: sway
    /// focuses a new window, so a focus watcher seeing it is the sign that sway knows it).
    public func openWindow(_ appID: String, environment extra: [String: String] = [:]) async throws -> TestProcess {
        let process = try TestProcess(
            executable: "/usr/bin/python3", arguments: ["-c", Self.windowScript, "application", appID], environment: environment(extra))
        windows.withLock { $0.append(process) }
        try await process.waitForLine(containing: "window shown")
        return process
    }

    /// ``X11Session``'s window script for Wayland: arguments `application ID` or `bare NAME`; it
    /// prints "window shown" once mapped. GTK3 takes the Wayland app_id from the program name it
    /// has when Gtk is first imported, so that is set to the id or name first.
    public static let windowScript = "import sys\nfrom gi.repository import GLib\nGLib.set_prgname(sys.argv[2])\n" + X11Session.windowScript
        .replacingOccurrences(of: "gi.require_version(\"GdkX11\", \"3.0\")\n", with: "")
        .replacingOccurrences(of: ", GdkX11", with: "")
        .replacingOccurrences(of: "print(\"window %d\" % window.get_window().get_xid(), flush=True)", with: "print(\"window shown\", flush=True)")

    /// Focuses the window of `appID` through sway's IPC.
    public func focus(_ appID: String) async throws {
        let result = try await TestProcess.run("/usr/bin/swaymsg", ["[app_id=\"\(appID)\"] focus"], environment: environment())
        guard result.status == 0 else { throw X11SessionError("swaymsg focus \(appID): \(result.stdout)\(result.stderr)") }
    }
}
