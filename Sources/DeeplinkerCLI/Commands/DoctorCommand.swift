import ArgumentParser
import FoundationEssentials

/// `deeplinker doctor [ID]`: walks the path a link takes (SPEC §7) and prints one line per check,
/// each ok or what is wrong and the command (or file:line) that fixes it. Changes nothing.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check every step a link takes, and say how to fix what is broken.",
        discussion: """
            Checks, in order: the daemon answers (or the bus can start it); deeplinkerd.service and
            deeplinker-focus.service are installed and enabled (skipped without a systemd user
            manager); DISPLAY or WAYLAND_DISPLAY is in the systemd user manager's environment (its
            Environment property, as `systemctl --user show-environment` prints it); every route
            file loads, and the running daemon serves it as it is on disk (its RouteFiles
            property: else it says the daemon serves an older version, and why); for each scheme,
            `gio mime` and `xdg-mime query default` name the app's handler entry, which validates
            and whose Exec exists; when that entry is DBusActivatable, the D-Bus service file of
            its bus name ID.deeplinker runs a program that exists, and the daemon owns the name (or
            the bus can start it); the app's entry and Deeplinker's override agree; the app id
            names an installed desktop entry, an activatable bus name or a running app (else a
            warning: did you mean ...); ready = "focus" apps have a launch that can bring up a
            window and a working focus backend; the browser hosts are installed (by
            install-browser, or for every user by the deeplinker package); each domain's verdict
            and age. The fixes fit how Deeplinker was installed (the package, scripts/install and
            its --prefix, a build directory) and whether a systemd user manager runs.

            Never changes anything and never starts the daemon. Exits 0 when every check passes
            (WARN lines included), 12 when one fails. --json prints one list of {name, ok,
            warning, detail, fix}.

            EXAMPLES:
              deeplinker doctor
              deeplinker doctor com.bestrecipes.App --json
            """)

    @Argument(help: "Check only this app (default: every app).") var appID: String?
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let probe = DoctorProbe(
            environment: ProcessInfo.processInfo.environment, busAddress: options.busAddress, configDir: options.configDir, appID: appID)
        let checks = await probe.run()
        if options.json {
            Output.json(checks)
        } else {
            for check in checks { Output.line(check.line) }
        }
        let failed = checks.filter { !$0.ok }.count
        if failed > 0 {
            if !options.json { Output.error("deeplinker: \(failed) of \(checks.count) checks failed") }
            throw ExitCode(ExitStatus.doctorFailed.rawValue)
        }
    }
}
