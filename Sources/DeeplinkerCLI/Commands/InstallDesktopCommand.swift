import ArgumentParser
import DeeplinkerCore
import DomainVerification
import FoundationEssentials

/// `deeplinker install-desktop ID` (SPEC §8): writes the hidden handler entry
/// `ID.deeplinker.desktop` and makes it the default for the app's schemes in mimeapps.list, and
/// writes the app's own entry (an override of its installed entry, or a minimal entry).
struct InstallDesktopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-desktop",
        abstract: "Route the app's links, icon and quick actions through deeplinker.",
        discussion: """
            Writes, under $XDG_DATA_HOME/applications (default ~/.local/share/applications):
              ID.deeplinker.desktop  hidden handler of the app's schemes (Exec: deeplinker open --app ID %u),
                                     D-Bus-activatable when deeplinkerd is beside deeplinker: launchers
                                     then call the daemon (bus name ID.deeplinker) and start nothing
              ID.desktop             the app's own entry routed through deeplinker: an override of its
                                     installed entry (Exec: deeplinker launch ID; actions: the shortcuts),
                                     or a minimal entry when the app has none
            and, for that, $XDG_DATA_HOME/dbus-1/services/ID.deeplinker.service (starts deeplinkerd);
            makes the handler the default for x-scheme-handler/SCHEME in $XDG_CONFIG_HOME/mimeapps.list
            (other lines are kept), and runs update-desktop-database there when it exists. Entries
            name deeplinker by its absolute path (this program, or --exec PATH).
            Then verifies the app's domains as `deeplinker verify ID` does and prints a line per
            domain; a domain that is not verified, or a daemon that cannot record the verdicts, is
            reported but does not fail the install (--no-verify skips it).
            Undo with `deeplinker uninstall-desktop ID`.

            EXAMPLE:
              deeplinker install-desktop com.bestrecipes.App
            """)

    @Argument(help: "The app id.") var appID: String
    @Option(name: .customLong("shortcut"), help: ArgumentHelp("List only these shortcuts as actions (repeatable).", valueName: "TYPE"))
    var shortcuts: [String] = []
    @Option(name: .customLong("exec"), help: ArgumentHelp("The absolute path of deeplinker to put in Exec (default: this program).", valueName: "PATH"))
    var executable: String?
    @Flag(name: .customLong("no-verify"), help: "Do not verify the app's domains.") var noVerify = false
    @OptionGroup var options: GlobalOptions

    struct JSONOutput: Codable {
        var handler: String?
        /// The D-Bus service file of the handler entry's bus name (when it is D-Bus-activatable).
        var service: String?
        var entry: String?
        var source: String?
        var mimeapps: String
        var schemes: [String]
        /// The app's domains as checked now (absent with --no-verify or when it claims none).
        var domains: [Domain]?
        /// Whether the daemon recorded the verdicts.
        var domainsRecorded: Bool?

        struct Domain: Codable {
            var domain, verdict, detail: String
        }

        enum CodingKeys: String, CodingKey {
            case handler, entry, source, mimeapps, schemes, domains
            case domainsRecorded = "domains_recorded"
        }
    }

    func run() async throws {
        let config = try RouteFiles.config(appID: appID, configDir: options.configDir)
        let installation = try DesktopInstallation(appID: appID)
        let executable = try DesktopInstallation.executable(option: executable)
        var written: [String] = []
        var output = JSONOutput(mimeapps: installation.mimeappsPath, schemes: DesktopEntry.handlerSchemes(config))

        // D-Bus-activatable when deeplinkerd is beside deeplinker: its service file goes first.
        let daemon = DesktopInstallation.daemon(beside: executable)
        if let handler = DesktopEntry.handler(config: config, executable: executable, dbusActivatable: daemon != nil) {
            if let daemon {
                try installation.write(DesktopEntry.handlerService(appID: appID, daemon: daemon), to: installation.handlerServicePath)
                output.service = installation.handlerServicePath
            } else {
                Output.error("deeplinker: no deeplinkerd beside \(executable): the handler entry is not D-Bus-activatable (launchers start deeplinker open)")
            }
            try installation.write(handler.rendered(), to: installation.handlerPath)
            written.append(installation.handlerPath)
            if let service = output.service { written.append(service) }
            output.handler = installation.handlerPath
        }
        if let blocker = installation.entryBlocker {
            Output.error("deeplinker: \(blocker)")
        } else {
            let installed = installation.installed
            let entry = DesktopEntry.appEntry(
                config: config, installed: installed, shortcuts: shortcuts.isEmpty ? nil : shortcuts, executable: executable)
            try installation.write(entry.rendered(), to: installation.entryPath)
            written.append(installation.entryPath + (installed.map { " (override of \($0.path))" } ?? ""))
            output.entry = installation.entryPath
            output.source = installed?.path
        }
        var mimeApps = try installation.mimeApps()
        var changed = false
        for scheme in output.schemes {
            changed = mimeApps.makeDefault(DesktopEntry.handlerFileName(appID: appID), for: "x-scheme-handler/\(scheme)") || changed
        }
        if changed { try installation.write(mimeApps.rendered(), to: installation.mimeappsPath) }
        installation.refreshCache()

        var recordFailure: String?
        if !noVerify && !config.domains.isEmpty, let reason = HTTPSFetch.unavailableReason {
            recordFailure = "the domains were not checked: \(reason)"
        } else if !noVerify && !config.domains.isEmpty {
            let outcomes = DomainVerifier.check(config.domains.map { (appID, $0.description) })
            output.domains = outcomes.map { .init(domain: $0.domain, verdict: $0.verdict.rawValue, detail: $0.detail) }
            do {
                try await DaemonSession.run(options) { proxy in
                    for o in outcomes {
                        try await proxy.setDomainVerification(appID: o.appID, domain: o.domain, verdict: o.verdict.rawValue, detail: o.detail)
                    }
                }
                output.domainsRecorded = true
            } catch let failure as CLIFailure {
                output.domainsRecorded = false
                recordFailure = "the verdicts were not recorded: \(failure.message)"
            }
        }

        if let recordFailure { Output.error("deeplinker: domain verification: \(recordFailure)") }
        if options.json { return Output.json(output) }
        for path in written { Output.line("wrote \(path)") }
        for scheme in output.schemes { Output.line("default handler for x-scheme-handler/\(scheme)") }
        for domain in output.domains ?? [] { Output.line("domain \(domain.domain): \(domain.verdict): \(domain.detail)") }
    }
}
