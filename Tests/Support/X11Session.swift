import DBusKit
import Foundation
import TaskThreads

/// A private X display for focus tests: Xvfb (the display number it picks itself) with openbox,
/// which publishes `_NET_ACTIVE_WINDOW` (Xvfb alone does not), and real GTK3 windows from python.
/// Only ``with(_:)`` makes one; everything started is stopped when the body ends.
public final class X11Session: Sendable {
    /// `:N`.
    public let display: String
    public let server: TestProcess
    private let windowManager: TestProcess
    private let windows = LockedValue<[TestProcess]>([])

    public static func with<T>(_ body: (X11Session) async throws -> T) async throws -> T {
        let session = try await X11Session()
        defer { session.stopAll() }
        return try await body(session)
    }

    private init() async throws {
        server = try TestProcess(
            executable: "/usr/bin/Xvfb", arguments: ["-displayfd", "1", "-screen", "0", "640x480x24", "-nolisten", "tcp"],
            environment: ProcessInfo.processInfo.environment)
        let number = try await server.stdoutLines.next { !$0.isEmpty }
        display = ":" + number.trimmingCharacters(in: .whitespaces)
        // openbox is ready once it lists what it supports on the root window: watch the root's
        // properties (line-buffered: xprop's output is a pipe here) from before it starts.
        let spy = try TestProcess(
            executable: "/usr/bin/stdbuf", arguments: ["-oL", "/usr/bin/xprop", "-root", "-spy"], environment: Self.environment(display))
        defer { spy.stop() }
        windowManager = try TestProcess(
            executable: "/usr/bin/openbox", arguments: ["--sm-disable"], environment: Self.environment(display))
        try await spy.waitForLine(containing: "_NET_SUPPORTED(ATOM)")
    }

    private func stopAll() {
        for window in windows.withLock({ $0 }) { window.stop() }
        windowManager.stop()
        server.stop()
    }

    static func environment(_ display: String, _ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment["WAYLAND_DISPLAY"] = nil
        environment["SWAYSOCK"] = nil
        environment["GDK_BACKEND"] = "x11"
        // No accessibility bus per window.
        environment["NO_AT_BRIDGE"] = "1"
        return environment.merging(extra) { $1 }
    }

    /// The environment of a program on this display.
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        Self.environment(display, extra)
    }

    /// A GTK3 window. `.application(id)`: a `Gtk.Application` window (`_GTK_APPLICATION_ID`) on the
    /// bus of `environment`, whose action `page` (`a{ss}`) and `activate` are announced as
    /// `org.deeplinker.Test1.Received`. `.bare(wmClass:)`: a plain `Gtk.Window` with only `WM_CLASS`.
    /// `prefix` runs before python (`sh -c`), e.g. to move the process into a cgroup.
    public enum Kind: Sendable {
        case application(String)
        case bare(wmClass: String)
    }

    /// Opens a window and returns its process and X window id once it is mapped.
    public func openWindow(_ kind: Kind, environment extra: [String: String] = [:], prefix: String = "") async throws -> (TestProcess, String) {
        let arguments: [String]
        switch kind {
        case .application(let id): arguments = ["application", id]
        case .bare(let wmClass): arguments = ["bare", wmClass]
        }
        let script = "\(prefix) exec /usr/bin/python3 -c \"$0\" \"$@\""
        let process = try TestProcess(
            executable: "/bin/sh", arguments: ["-c", script, Self.windowScript] + arguments, environment: environment(extra))
        windows.withLock { $0.append(process) }
        let line = try await process.waitForLine(containing: "window ")
        return (process, String(line.dropFirst("window ".count)))
    }

    /// Gives `window` the input focus through the window manager, as a click would.
    public func activate(_ window: String) async throws {
        let result = try await TestProcess.run("/usr/bin/xdotool", ["windowactivate", "--sync", window], environment: environment())
        guard result.status == 0 else { throw X11SessionError("xdotool windowactivate \(window): \(result.stderr)") }
    }

    static let windowScript = #"""
        import sys, gi
        gi.require_version("Gtk", "3.0")
        gi.require_version("GdkX11", "3.0")
        from gi.repository import Gtk, Gio, GLib, GdkX11

        mode, name = sys.argv[1], sys.argv[2]

        def mapped(window, event):
            print("window %d" % window.get_window().get_xid(), flush=True)
            return False

        if mode == "bare":
            window = Gtk.Window(title="bare " + name)
            window.set_wmclass(name.lower(), name)
            window.connect("map-event", mapped)
            window.connect("destroy", Gtk.main_quit)
            window.show_all()
            Gtk.main()
        else:
            app = Gtk.Application(application_id=name)
            def announce(target, params):
                app.get_dbus_connection().emit_signal(
                    None, app.get_dbus_object_path(), "org.deeplinker.Test1", "Received",
                    GLib.Variant("(ssa{ss}a{ss})", (name, target, params, {})))
            def on_page(action, parameter):
                announce("page", parameter.unpack())
            action = Gio.SimpleAction.new("page", GLib.VariantType.new("a{ss}"))
            action.connect("activate", on_page)
            app.add_action(action)
            def on_activate(application):
                windows = application.get_windows()
                if windows:
                    announce("(activate)", {})
                    return
                window = Gtk.ApplicationWindow(application=application, title="app " + name)
                window.connect("map-event", mapped)
                window.show_all()
            app.connect("activate", on_activate)
            sys.exit(app.run([]))
        """#
}

public struct X11SessionError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
