import ArgumentParser
import FocusWatch
import FoundationEssentials
import TaskThreads

/// `deeplinker focus-watch [--backend auto|x11|sway]`: follows the desktop's input focus and tells
/// the daemon which app has it (`SetFocusedApp`), so `ready = "focus"` apps get their routes when
/// their window is focused (SPEC §6, §7). Runs until the display goes away (exit 13; its user unit
/// restarts it).
struct FocusWatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focus-watch",
        abstract: "Report the app whose window has the input focus to the daemon (for ready = \"focus\" apps).",
        discussion: """
            Backends: x11 follows EWMH _NET_ACTIVE_WINDOW (any X11 window manager that sets it),
            sway follows its IPC window events; auto picks sway when SWAYSOCK is set, x11 when
            DISPLAY is set and WAYLAND_DISPLAY is not. GNOME and KDE on Wayland have no backend yet.
            A window's app id is its _GTK_APPLICATION_ID (or Wayland app_id), else the systemd scope
            of its process (app-<launcher>-<app-id>-....scope), else the desktop entry whose
            StartupWMClass equals its WM_CLASS; any other window reports "".

            Exits 13 when no backend works or the display goes away; the bus connection is made
            again when it is lost.

            EXAMPLES:
              deeplinker focus-watch
              deeplinker focus-watch --backend x11 --verbose
            """)

    @Option(name: .long, help: ArgumentHelp("auto, x11 or sway.", valueName: "BACKEND"))
    var backend: String = "auto"
    @Flag(name: .long, help: "Print each focus change (app id) on stdout, and each report the daemon answered.")
    var verbose = false
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let chosen = FocusBackend(rawValue: backend) else {
            throw CLIFailure(.usage, "invalid --backend '\(backend)' (expected auto, x11 or sway)")
        }
        let picked: FocusBackend
        if chosen == .auto {
            guard let found = FocusBackend.pick(environment: environment) else {
                throw CLIFailure(.focusBackendGone, "focus-watch: no focus backend: \(FocusBackend.whyNone(environment: environment))")
            }
            picked = found
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
        let ended: FocusWatchError
        do throws(FocusWatchError) {
            switch picked {
            case .x11:
                let source = try X11FocusSource(display: nil)
                if !source.windowManagerReportsFocus {
                    Output.error("focus-watch: the window manager on \(source.display) does not list _NET_ACTIVE_WINDOW; focus changes may never be seen")
                }
                ended = await Self.onThread { source.run(onChange) }
            case .sway, .auto:
                let source = try SwayFocusSource(socketPath: nil)
                ended = await Self.onThread { source.run(onChange) }
            }
        } catch {
            reporter.stop()
            throw CLIFailure(.focusBackendGone, "focus-watch: \(picked.rawValue) backend unusable: \(error.message)")
        }
        reporter.stop()
        throw CLIFailure(.focusBackendGone, "focus-watch: \(ended.message)")
    }

    /// Runs a blocking backend loop on a thread of its own and waits for its end.
    static func onThread(_ body: @escaping @Sendable () -> FocusWatchError) async -> FocusWatchError {
        await withCheckedContinuation { continuation in
            NamedThread.start(name: "focus-watch") { continuation.resume(returning: body()) }
        }
    }
}
