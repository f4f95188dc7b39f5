import ArgumentParser
import DBusKit
import FocusWatch
import Glibc
import TaskThreads
import FoundationEssentials

/// `deeplinker focus-watch [--backend auto|x11|sway|kwin]`: follows the desktop's input focus and tells
/// the daemon which app has it (`SetFocusedApp`), so `ready = "focus"` apps get their routes when
/// their window is focused (SPEC §6, §7). Runs until the display goes away (exit 13; its user unit
/// restarts it).
struct FocusWatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focus-watch",
        abstract: "Report the app whose window has the input focus to the daemon (for ready = \"focus\" apps).",
        discussion: """
            Backends: x11 follows EWMH _NET_ACTIVE_WINDOW (any X11 window manager that sets it), sway follows its IPC window events, kwin (KDE Plasma 5.27 and 6, Wayland or X11) loads a KWin script through org.kde.kwin.Scripting that reports each activation back (it is loaded again when KWin restarts and unloaded when focus-watch stops; KWin's empty activation between two windows counts only when no window follows within 100 ms). auto picks sway when SWAYSOCK is set, kwin on KDE (XDG_CURRENT_DESKTOP, or org.kde.KWin on the bus), x11 when DISPLAY is set and WAYLAND_DISPLAY is not. On GNOME, auto exits 0: the GNOME Shell extension focus@deeplinker.org reports the focus there (deeplinker install-gnome-extension).

            A window's app id is its _GTK_APPLICATION_ID (or Wayland app_id, or KWin's desktopFileName), else the systemd scope of its process (app-<launcher>-<app-id>-....scope), else the desktop entry whose StartupWMClass equals its WM_CLASS (KWin's resourceClass); any other window reports "".

            Exits 13 when no backend works, or when the display (or, for kwin, the bus) goes away and does not answer again within a second; the bus connection is made again when it is lost.

            EXAMPLES:
              deeplinker focus-watch
              deeplinker focus-watch --backend x11 --verbose
            """)

    @Option(name: .long, help: ArgumentHelp("auto, x11, sway or kwin.", valueName: "BACKEND"))
    var backend: String = "auto"
    @Flag(name: .long, help: "Print each focus change (app id) on stdout, and each report the daemon answered.")
    var verbose = false
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let chosen = FocusBackend(rawValue: backend) else {
            throw CLIFailure(.usage, "invalid --backend '\(backend)' (expected auto, x11, sway or kwin)")
        }
        let picked: FocusBackend
        if chosen == .auto {
            switch FocusBackend.choose(environment: environment, kwinOnBus: await Self.kwinOnBus(options.busAddress)) {
            case .backend(let found):
                picked = found
            case .gnomeExtension:
                // Not a failure: the unit must not fail at every GNOME login.
                Output.error("focus-watch: this is GNOME Shell: its extension focus@deeplinker.org reports the focus here, not focus-watch (deeplinker install-gnome-extension); nothing to do")
                return
            case .none(let reason):
                throw CLIFailure(.focusBackendGone, "focus-watch: no focus backend: \(reason)")
            }
        } else {
            picked = chosen
        }
        let verbose = self.verbose
        let reporter = FocusReporter(busAddress: options.busAddress, log: { Output.error("focus-watch: \($0)") }) { appID, error in
            guard verbose else { return }
            let shown = appID.isEmpty ? "\"\"" : appID
            Output.line(error.map { "not reported \(shown): \($0)" } ?? "reported \(shown)")
        }
        // The display is followed at once; reports go out as soon as the bus connection is made.
        Task { await reporter.start() }
        let resolver = AppIDResolver(environment: environment)
        let onChange: @Sendable (FocusedWindow?) -> Void = { window in
            let appID = resolver.appID(for: window)
            if verbose { Output.line("focus \(appID.isEmpty ? "\"\"" : appID)") }
            reporter.report(appID)
        }
        if picked == .kwin {
            return try await Self.followKWin(busAddress: options.busAddress, environment: environment, reporter: reporter, onChange: onChange)
        }
        var lastEnd: FocusWatchError?
        while true {
            let ended: FocusWatchError
            do throws(FocusWatchError) {
                ended = try await Self.follow(picked, onChange: onChange, quiet: lastEnd != nil)
            } catch {
                reporter.stop()
                if let lastEnd {
                    throw CLIFailure(.focusBackendGone, "focus-watch: \(lastEnd.message); connecting again failed: \(error.message)")
                }
                throw CLIFailure(.focusBackendGone, "focus-watch: \(picked.rawValue) backend unusable: \(error.message)")
            }
            // The display went away. One that is back at once (a display server brought back by
            // the session) is followed again; otherwise exit 13, and the unit restarts focus-watch.
            guard await Self.displayIsBack(picked) else {
                reporter.stop()
                throw CLIFailure(.focusBackendGone, "focus-watch: \(ended.message)")
            }
            Output.error("focus-watch: \(ended.message); connected again")
            lastEnd = ended
        }
    }

    /// Whether KWin owns its name on the session bus (a KDE session whose XDG_CURRENT_DESKTOP was lost).
    static func kwinOnBus(_ busAddress: String?) async -> Bool {
        guard let connection = try? DBusConnection(address: busAddress) else { return false }
        defer { connection.close() }
        return ((try? await connection.nameOwner(KWinFocusSource.kwinName)) ?? nil) != nil
    }

    /// Follows KWin through its script until SIGTERM or SIGINT (the script is unloaded, exit 0) or
    /// until the bus connection is lost (exit 13; the unit restarts focus-watch).
    static func followKWin(
        busAddress: String?, environment: [String: String], reporter: FocusReporter, onChange: @escaping @Sendable (FocusedWindow?) -> Void
    ) async throws {
        let signals: AsyncStream<Int32>
        do { signals = try SignalThread.trap([SIGTERM, SIGINT], name: "focus-signals") } catch { throw CLIFailure(.failure, "focus-watch: \(error)") }
        let source: KWinFocusSource
        do throws(FocusWatchError) {
            source = try KWinFocusSource(busAddress: busAddress, runtimeDirectory: environment["XDG_RUNTIME_DIR"]) { Output.error("focus-watch: \($0)") }
        } catch {
            reporter.stop()
            throw CLIFailure(.focusBackendGone, "focus-watch: kwin backend unusable: \(error.message)")
        }
        Task {
            for await _ in signals {
                await source.stop()
                return
            }
        }
        let ended = await source.run(onChange)
        let stopped = source.isStopped
        await source.stop()
        reporter.stop()
        if !stopped { throw CLIFailure(.focusBackendGone, "focus-watch: \(ended.message)") }
    }

    /// Follows one backend until its display goes away; throws when it cannot be used at all.
    static func follow(_ backend: FocusBackend, onChange: @escaping @Sendable (FocusedWindow?) -> Void, quiet: Bool) async throws(FocusWatchError) -> FocusWatchError {
        switch backend {
        case .x11:
            let source = try X11FocusSource(display: nil)
            if !quiet && !source.windowManagerReportsFocus {
                Output.error("focus-watch: the window manager on \(source.display) does not list _NET_ACTIVE_WINDOW; focus changes may never be seen")
            }
            return await onThread { source.run(onChange) }
        case .sway, .auto, .kwin:
            let source = try SwayFocusSource(socketPath: nil)
            return await onThread { source.run(onChange) }
        }
    }

    /// Whether the display answers again within a second (three tries, 500 ms apart).
    static func displayIsBack(_ backend: FocusBackend) async -> Bool {
        for attempt in 0..<3 {
            if attempt > 0 { try? await Task.sleep(for: .milliseconds(500)) }
            switch backend {
            case .x11: if (try? X11FocusSource(display: nil)) != nil { return true }
            case .sway, .auto, .kwin: if (try? SwayFocusSource(socketPath: nil)) != nil { return true }
            }
        }
        return false
    }

    /// Runs a blocking backend loop on a thread of its own and waits for its end.
    static func onThread(_ body: @escaping @Sendable () -> FocusWatchError) async -> FocusWatchError {
        await withCheckedContinuation { continuation in
            NamedThread.start(name: "focus-watch") { continuation.resume(returning: body()) }
        }
    }
}
