import DBusKit
import FoundationEssentials
import Glibc
import TaskThreads

/// Follows KWin's focus (KDE Plasma 5.27 and 6, Wayland or X11) with a KWin script that
/// focus-watch loads live through `org.kde.kwin.Scripting` (`loadScript`, then `start`): the
/// script calls back `Activated` on focus-watch's own connection at every activation. It is loaded
/// again when KWin's name gets a new owner (KWin restarted) and unloaded by ``stop()``.
///
/// KWin activates "no window" between two windows; that empty activation is reported only when
/// no window follows within ``emptyActivationGrace``.
public final class KWinFocusSource: Sendable {
    public static let kwinName = "org.kde.KWin"
    public static let objectPath = "/org/deeplinker/FocusWatch"
    public static let interface = "org.deeplinker.FocusWatch1"
    public static let emptyActivationGrace = Duration.milliseconds(100)

    private struct State {
        /// Bumped by every activation, so a pending empty one knows it was overtaken.
        var generation: UInt64 = 0
        var loaded = false
        var stopped = false
        var onChange: (@Sendable (FocusedWindow?) -> Void)?
        /// `run` waiting for its end (the connection lost, or `stop()`).
        var waiting: CheckedContinuation<Void, Never>?
    }

    public let connection: DBusConnection
    /// The script file (in the runtime directory) and the plugin name it is loaded under.
    public let scriptPath: String
    public let pluginName: String
    private let log: @Sendable (String) -> Void
    private let state = LockedValue(State())

    public init(busAddress: String?, runtimeDirectory: String?, log: @escaping @Sendable (String) -> Void) throws(FocusWatchError) {
        do {
            connection = try DBusConnection(address: busAddress)
        } catch {
            throw FocusWatchError("no session bus for the KWin backend: \(error.message)")
        }
        let unique = String(connection.uniqueName.compactMap { $0 == ":" ? nil : $0 == "." ? "_" : $0 })
        pluginName = "deeplinker-focus-\(unique)"
        let directory = runtimeDirectory.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        scriptPath = "\(directory)/\(pluginName).js"
        self.log = log
    }

    /// The KWin script that reports each activation to `service` (a unique name). KWin 6 has
    /// `windowActivated` and `activeWindow`, KWin 5 `clientActivated` and `activeClient`. Every
    /// argument is a string (KWin turns JavaScript numbers into doubles on the bus).
    public static func script(service: String) -> String {
        """
        // Written by `deeplinker focus-watch`; loaded through org.kde.kwin.Scripting, unloaded when it stops.
        (function () {
            var report = function (window) {
                if (!window) {
                    callDBus("\(service)", "\(objectPath)", "\(interface)", "Activated", "", "", "", "");
                    return;
                }
                callDBus("\(service)", "\(objectPath)", "\(interface)", "Activated",
                    String(window.desktopFileName || ""), String(window.resourceClass || ""),
                    String(window.resourceName || ""), String(window.pid || 0));
            };
            (workspace.windowActivated || workspace.clientActivated).connect(report);
            report(workspace.activeWindow || workspace.activeClient);
        })();

        """
    }

    /// The window an `Activated(desktop_file, resource_class, resource_name, pid)` call names; nil
    /// for the empty activation.
    public static func window(desktopFile: String, resourceClass: String, resourceName: String, pid: String) -> FocusedWindow? {
        if desktopFile.isEmpty && resourceClass.isEmpty && resourceName.isEmpty { return nil }
        var window = FocusedWindow()
        if !desktopFile.isEmpty { window.applicationID = desktopFile }
        if let number = Int32(pid) ?? Double(pid).flatMap({ Int32(exactly: $0) }), number > 0 { window.pid = number }
        if !resourceClass.isEmpty || !resourceName.isEmpty { window.wmClass = [resourceName, resourceClass] }
        return window
    }

    /// Loads the script and reports every activation to `onChange` until the bus connection is
    /// lost (returns why) or ``stop()``.
    public func run(_ onChange: @escaping @Sendable (FocusedWindow?) -> Void) async -> FocusWatchError {
        state.withLock { $0.onChange = onChange }
        do {
            try connection.export(DBusObject(path: Self.objectPath, interfaces: [DBusInterface(
                Self.interface,
                methods: [DBusMethod(
                    "Activated",
                    in: [DBusArgument("desktop_file", "s"), DBusArgument("resource_class", "s"), DBusArgument("resource_name", "s"), DBusArgument("pid", "s")],
                    documentation: "Called by focus-watch's KWin script at each window activation (all \"\" for none)."
                ) { [weak self] call in
                    let strings = call.arguments.map { $0.stringValue ?? "" }
                    call.reply()
                    guard let self, strings.count == 4 else { return }
                    self.activated(Self.window(desktopFile: strings[0], resourceClass: strings[1], resourceName: strings[2], pid: strings[3]))
                }],
                signals: [], properties: [])]))
            try Self.writeScript(Self.script(service: connection.uniqueName), to: scriptPath)
            // A KWin that (re)starts gets the script again.
            try await connection.onNameOwnerChanged(name: Self.kwinName) { [weak self] _, _, owner in
                guard let self else { return }
                self.state.withLock { $0.loaded = false }
                guard !owner.isEmpty else { return self.log("KWin left the bus; waiting for it to come back") }
                Task { await self.load() }
            }
            if try await connection.nameOwner(Self.kwinName) != nil {
                await load()
            } else {
                log("KWin (\(Self.kwinName)) is not on the bus yet; the script is loaded when it comes")
            }
            connection.onDisconnect { [weak self] in self?.end() }
            await withCheckedContinuation { continuation in
                let stopped = state.withLock { state -> Bool in
                    state.waiting = continuation
                    return state.stopped
                }
                if stopped { end() }
            }
            return FocusWatchError(isStopped ? "stopped" : "lost the session bus connection (KWin backend)")
        } catch let error as FocusWatchError {
            return error
        } catch {
            return FocusWatchError("KWin backend: \(error)")
        }
    }

    /// Whether ``stop()`` was called.
    public var isStopped: Bool { state.withLock { $0.stopped } }

    /// Lets `run` return.
    private func end() {
        state.withLock { state in defer { state.waiting = nil }; return state.waiting }?.resume()
    }

    /// Unloads the script from KWin and removes its file (focus-watch stops); `run` then returns.
    public func stop() async {
        let (first, loaded) = state.withLock { state -> (Bool, Bool) in
            defer { state.stopped = true }
            return (!state.stopped, state.loaded)
        }
        guard first else { return }
        if loaded {
            do {
                _ = try await scripting("unloadScript", [.string(pluginName)])
            } catch {
                log("cannot unload the KWin script \(pluginName): \(error.name): \(error.message)")
            }
        }
        unlink(scriptPath)
        end()
        connection.close()
    }

    /// Loads the script into the running KWin and starts it. A KWin that has just taken its name
    /// may not serve `/Scripting` yet: that is tried again every 100 ms for up to 10 s.
    func load() async {
        for _ in 0..<100 {
            guard !state.withLock({ $0.stopped || $0.loaded }) else { return }
            do {
                _ = try await scripting("isScriptLoaded", [.string(pluginName)])
                break
            } catch where error.name == "org.freedesktop.DBus.Error.UnknownObject" || error.name == "org.freedesktop.DBus.Error.UnknownMethod" {
                try? await Task.sleep(for: .milliseconds(100))
            } catch {
                break
            }
        }
        guard !state.withLock({ $0.stopped }) else { return }
        do {
            // A script left under this name (this connection's) is replaced, not doubled.
            if try await scripting("isScriptLoaded", [.string(pluginName)]).first == .boolean(true) {
                _ = try await scripting("unloadScript", [.string(pluginName)])
            }
            var id: Int32 = -1
            if case .int32(let answer)? = try await scripting("loadScript", [.string(scriptPath), .string(pluginName)]).first { id = answer }
            guard id >= 0 else { return log("KWin refused to load \(scriptPath) (loadScript returned \(id))") }
            _ = try await scripting("start", [])
            state.withLock { $0.loaded = true }
            log("KWin script \(pluginName) loaded from \(scriptPath)")
        } catch {
            log("cannot load the KWin script: \(error.name): \(error.message)")
        }
    }

    private func scripting(_ member: String, _ arguments: [DBusValue]) async throws(DBusError) -> [DBusValue] {
        try await connection.call(
            destination: Self.kwinName, path: "/Scripting", interface: "org.kde.kwin.Scripting", member: member,
            arguments: arguments, timeout: .seconds(5), noAutoStart: true)
    }

    /// One activation from the script: a window at once; none only when no window follows within
    /// the grace.
    func activated(_ window: FocusedWindow?) {
        let (generation, onChange) = state.withLock { state -> (UInt64, (@Sendable (FocusedWindow?) -> Void)?) in
            state.generation &+= 1
            return (state.generation, state.onChange)
        }
        guard let onChange else { return }
        if let window { return onChange(window) }
        Task { [weak self] in
            try? await Task.sleep(for: Self.emptyActivationGrace)
            guard let self, self.state.withLock({ $0.generation == generation && !$0.stopped }) else { return }
            onChange(nil)
        }
    }

    static func writeScript(_ text: String, to path: String) throws(FocusWatchError) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw FocusWatchError("cannot write the KWin script \(path): \(error)")
        }
    }
}
