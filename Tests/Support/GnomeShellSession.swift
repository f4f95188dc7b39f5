import DBusKit
import TaskThreads
import Foundation

/// A headless GNOME Shell (`--headless --virtual-monitor --wayland --no-x11`) on a test's session
/// bus, with real GTK3 Wayland windows, for the focus extension's tests. It gets a runtime
/// directory of its own, a throwaway system bus (it asks logind there), settings in a keyfile
/// under `home` (`GSETTINGS_BACKEND=keyfile`, so no dconf service is needed), and the test-only
/// extension `focus-test-helper@deeplinker.org` (Tests/GnomeShell), which moves the focus: the
/// shell starts in the Overview, where new windows get none, and `org.gnome.Shell.Eval` is
/// refused. Only ``with(busAddress:home:_:)`` makes one, and it always stops the shell.
public final class GnomeShellSession: Sendable {
    public static let helperUUID = "focus-test-helper@deeplinker.org"
    public static let helperName = "org.deeplinker.Test.FocusHelper"
    public var runtimeDirectory: String { runtime.directory }
    public let home: String
    public var busAddress: String { runtime.busAddress }
    public let waylandDisplay = "wayland-0"
    private let runtime: HeadlessCompositorRuntime
    private let shell = LockedValue<TestProcess?>(nil)
    private var connection: DBusConnection { runtime.connection }

    /// Whether GNOME Shell is installed here (scripts/setup installs it).
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/gnome-shell") }

    /// The test-only helper extension's folder in this checkout.
    public static var helperSource: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("GnomeShell/\(helperUUID)").path
    }

    /// Makes the session with `home` as HOME (settings and extensions below it) and runs `body`;
    /// the shell is started by ``start()``, after the test has installed what it reads at start.
    public static func with<T>(busAddress: String, home: String, _ body: (GnomeShellSession) async throws -> T) async throws -> T {
        let session = try await GnomeShellSession(busAddress: busAddress, home: home)
        defer { session.stopAll() }
        return try await body(session)
    }

    private init(busAddress: String, home: String) async throws {
        runtime = try await HeadlessCompositorRuntime(prefix: "deeplinker-gnome", busAddress: busAddress)
        self.home = home
    }

    private func stopAll() {
        runtime.stop(compositor: shell.withLock { $0 })
    }

    /// The environment of the shell and of its clients (GTK windows, gsettings, the CLI).
    public func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = runtime.environment(waylandDisplay: waylandDisplay, home: home, desktop: "GNOME")
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        environment["XDG_DATA_HOME"] = home + "/.local/share"
        environment["GSETTINGS_BACKEND"] = "keyfile"
        environment["XDG_SESSION_TYPE"] = "wayland"
        environment["GTK_A11Y"] = "none"
        return environment.merging(extra) { $1 }
    }

    /// `gsettings` in this session's settings (`set`, `get`, ...); its stdout.
    @discardableResult
    public func gsettings(_ arguments: [String]) async throws -> String {
        let result = try await TestProcess.run("/usr/bin/gsettings", arguments, environment: environment())
        guard result.status == 0 else { throw X11SessionError("gsettings \(arguments): \(result.stderr)") }
        return result.stdout
    }

    /// Installs the helper extension for the user and enables it in the settings (read at start).
    public func installHelper() async throws {
        let target = home + "/.local/share/gnome-shell/extensions/" + Self.helperUUID
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.helperSource, toPath: target)
        let current = try await gsettings(["get", "org.gnome.shell", "enabled-extensions"])
        let list = current.contains("'") ? String(current.trimmingCharacters(in: .whitespacesAndNewlines).dropLast()) + ", '\(Self.helperUUID)']" : "['\(Self.helperUUID)']"
        try await gsettings(["set", "org.gnome.shell", "enabled-extensions", list])
    }

    /// Starts the shell (with the helper installed) and returns once the helper is on the bus.
    public func start() async throws {
        try await installHelper()
        let process = try TestProcess(
            executable: "/usr/bin/gnome-shell", arguments: ["--headless", "--virtual-monitor", "1280x800", "--wayland", "--no-x11"],
            environment: environment())
        shell.withLock { $0 = process }
        do {
            try await connection.waitForOwner(Self.helperName, timeout: .seconds(60))
        } catch {
            throw X11SessionError("gnome-shell did not start its helper extension: \(error); stderr: \(process.stderr.suffix(3000))")
        }
    }

    /// The shell's state of an extension (1 enabled, 2 disabled, 6 initialized; GNOME's ExtensionState).
    public func extensionState(_ uuid: String) async throws -> Int {
        let reply = try await connection.call(
            destination: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.gnome.Shell.Extensions",
            member: "GetExtensionInfo", arguments: [.string(uuid)], timeout: .seconds(10))
        if case .double(let state)? = reply.first?.variantDictionaryValue?["state"] { return Int(state) }
        return -1
    }

    /// Calls `org.gnome.Shell.Extensions.<member>(uuid)` on the shell.
    public func extensions(_ member: String, _ uuid: String) async throws {
        _ = try await connection.call(
            destination: "org.gnome.Shell", path: "/org/gnome/Shell", interface: "org.gnome.Shell.Extensions",
            member: member, arguments: [.string(uuid)], timeout: .seconds(10))
    }

    /// A `Gtk.Application` window whose application id and Wayland app_id are `appID` (as
    /// ``SwaySession`` makes them); returns once GTK has shown it.
    public func openWindow(_ appID: String) async throws -> TestProcess {
        try await runtime.openWindow(["application", appID], environment: environment())
    }

    /// A bare `Gtk.Window` (no application id) whose Wayland app_id is `programName`.
    public func openBareWindow(_ programName: String) async throws -> TestProcess {
        try await runtime.openWindow(["bare", programName], environment: environment())
    }

    /// Leaves the Overview and gives the window with this id (application id, app_id or title)
    /// the focus, through the helper extension.
    public func activate(_ id: String) async throws {
        _ = try await connection.call(
            destination: Self.helperName, path: "/org/deeplinker/Test/FocusHelper", interface: Self.helperName,
            member: "Activate", arguments: [.string(id)], timeout: .seconds(20))
    }
}
