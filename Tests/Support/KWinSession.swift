import DBusKit
import TaskThreads
import Foundation

/// A headless KWin (`kwin_wayland --virtual`) on a test's session bus, with real GTK3 Wayland
/// windows, for `focus-watch --backend kwin`. `/usr/bin/kwin_wayland` carries a file capability
/// this container refuses, so a copy (named `kwin_wayland` still: another name fails to load its
/// Qt platform plugin) runs instead. It gets a runtime directory of its own and a throwaway system
/// bus. New windows take the focus; ``activate(_:)`` moves it with a one-shot KWin script (test
/// only). Only ``with(busAddress:_:)`` makes one, and it always stops KWin.
public final class KWinSession: Sendable {
    public var runtimeDirectory: String { runtime.directory }
    public var busAddress: String { runtime.busAddress }
    public let waylandDisplay = "wayland-k"
    private let binary: String
    private let runtime: HeadlessCompositorRuntime
    private let compositor = LockedValue<TestProcess?>(nil)
    private var connection: DBusConnection { runtime.connection }
    private let scripts = LockedValue(0)

    /// Whether KWin is installed here (scripts/setup installs kwin-wayland).
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/kwin_wayland") }

    public static func with<T>(busAddress: String, _ body: (KWinSession) async throws -> T) async throws -> T {
        let session = try await KWinSession(busAddress: busAddress)
        defer { session.stopAll() }
        try await session.start()
        return try await body(session)
    }

    private init(busAddress: String) async throws {
        let runtime = try await HeadlessCompositorRuntime(prefix: "deeplinker-kwin", busAddress: busAddress)
        self.runtime = runtime
        // The copy has no file capability.
        binary = runtime.directory + "/bin/kwin_wayland"
        do {
            try FileManager.default.createDirectory(atPath: runtime.directory + "/bin", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "/usr/bin/kwin_wayland", toPath: binary)
        } catch {
            runtime.stop(compositor: nil)
            throw error
        }
    }

    private func stopAll() {
        runtime.stop(compositor: compositor.withLock { $0 })
    }

    /// The environment of KWin and its clients (GTK windows, focus-watch).
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        runtime.environment(waylandDisplay: waylandDisplay, home: runtimeDirectory, desktop: "KDE").merging(extra) { $1 }
    }

    /// Starts KWin (again, after ``stop()``) and returns once it owns `org.kde.KWin`.
    public func start() async throws {
        let process = try TestProcess(
            executable: binary,
            arguments: ["--virtual", "--width", "1280", "--height", "800", "--socket", waylandDisplay,
                        "--no-lockscreen", "--no-global-shortcuts", "--no-kactivities"],
            environment: environment())
        compositor.withLock { $0 = process }
        do {
            try await connection.waitForOwner("org.kde.KWin", timeout: .seconds(60))
        } catch {
            throw X11SessionError("kwin_wayland did not take org.kde.KWin: \(error); stderr: \(process.stderr.suffix(3000))")
        }
    }

    /// Kills KWin and waits until its name is gone (its windows lose their display).
    public func stop() async throws {
        compositor.withLock { current in defer { current = nil }; return current }?.stop()
        runtime.closeWindows()
        try await connection.waitUntilUnowned("org.kde.KWin")
    }

    /// A `Gtk.Window` of a `Gtk.Application` whose application id and Wayland app_id are `appID`,
    /// with the focus; returns once GTK has shown it.
    @discardableResult
    public func openWindow(_ appID: String) async throws -> TestProcess {
        try await open(["application", appID], id: appID)
    }

    /// A bare `Gtk.Window` whose Wayland app_id (KWin's resourceClass) is `programName`, with the focus.
    @discardableResult
    public func openBareWindow(_ programName: String) async throws -> TestProcess {
        try await open(["bare", programName], id: programName)
    }

    /// KWin gives a new window the focus unless its focus stealing prevention holds it back (a
    /// window with no activation token while another app's is active), so it is activated too;
    /// that changes nothing when it has the focus already.
    private func open(_ arguments: [String], id: String) async throws -> TestProcess {
        let process = try await runtime.openWindow(arguments, environment: environment())
        try await activate(id)
        return process
    }

    /// Gives the window whose desktopFileName or resourceClass is `id` the focus, with a one-shot
    /// KWin script (KWin 5: `workspace.activeClient = …`; KWin 6: `activeWindow`).
    public func activate(_ id: String) async throws {
        let number = scripts.withLock { value -> Int in value += 1; return value }
        let name = "deeplinker-test-activate-\(number)"
        let path = "\(runtimeDirectory)/\(name).js"
        try """
            (function () {
                var list = workspace.windowList ? workspace.windowList() : workspace.clientList();
                for (var i = 0; i < list.length; i++) {
                    var w = list[i];
                    if (w.desktopFileName == "\(id)" || w.resourceClass == "\(id)") {
                        if (workspace.windowList) workspace.activeWindow = w; else workspace.activeClient = w;
                    }
                }
            })();
            """.write(toFile: path, atomically: true, encoding: .utf8)
        _ = try await scripting("loadScript", [.string(path), .string(name)])
        // Left loaded: `start` only queues the script's run, and an unload could overtake it.
        _ = try await scripting("start")
    }

    /// Whether a script of this plugin name is loaded in KWin.
    public func isScriptLoaded(_ name: String) async throws -> Bool {
        try await scripting("isScriptLoaded", [.string(name)]).first == .boolean(true)
    }

    private func scripting(_ member: String, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        try await connection.call(
            destination: "org.kde.KWin", path: "/Scripting", interface: "org.kde.kwin.Scripting", member: member,
            arguments: arguments, timeout: .seconds(10))
    }
}
