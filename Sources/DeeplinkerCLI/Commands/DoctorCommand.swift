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
            deeplinker-focus.service are installed and enabled; DISPLAY or WAYLAND_DISPLAY is in the
            systemd user manager's environment (its Environment property, as `systemctl --user
            show-environment` prints it); every route file loads; for each scheme, `gio mime` and
            `xdg-mime query default` name the app's handler entry, which validates and whose Exec
            exists; when that entry is DBusActivatable, the D-Bus service file of its bus name
            ID.deeplinker runs a program that exists, and the daemon owns the name (or the bus can
            start it); the app's entry and Deeplinker's override agree; ready = "focus" apps have a
            working focus backend; the browser hosts are installed (by install-browser, or for every
            user by the deeplinker package); each domain's verdict and age.

            Never changes anything and never starts the daemon. Exits 0 when every check passes,
            12 when one fails. --json prints one list of {name, ok, detail, fix}.

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
