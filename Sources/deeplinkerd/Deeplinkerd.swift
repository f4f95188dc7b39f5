import ArgumentParser
import DBusKit
import DeeplinkerDaemon
import FoundationEssentials
import Glibc
import Logging
import ServiceLifecycle
import TaskThreads

/// `deeplinkerd`: parses flags, then runs what `buildDaemon` returns under a ServiceGroup
/// (`Deeplinkerd+Run.swift`).
@main
struct Deeplinkerd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deeplinkerd",
        abstract: "The Deeplinker daemon: routes app invocations and delivers them once the app is active.",
        version: DeeplinkerAPI.version)

    @Option(name: .customLong(DaemonOption.configDirectory.rawValue), help: "Read route files only from this directory.")
    var configDir: String?

    @Option(name: .customLong(DaemonOption.stateDirectory.rawValue), help: "Keep the database here (default $XDG_STATE_HOME/deeplinker).")
    var stateDir: String?

    @Option(name: .customLong(DaemonOption.busAddress.rawValue), help: "Connect to this bus instead of the session bus.")
    var busAddress: String?

    @Option(
        name: .customLong(DaemonOption.logLevel.rawValue),
        help: ArgumentHelp("Log this level and above: trace, debug, info, notice, warning, error or critical (default info, or $DEEPLINKER_LOG_LEVEL).", valueName: "LEVEL"))
    var logLevel: String?

    @Flag(name: .customLong("print-introspection"), help: .hidden)
    var printIntrospection = false

    /// An ordinary start (only known options with valid values) skips ArgumentParser's reflection,
    /// about 1 ms of CPU of the cold start (measured as ``DaemonArguments`` says); everything else
    /// (help, version, completion scripts, errors) goes through it.
    static func main() async {
        // Before any task: the global executor's jobs run on threads of our own, so the idle daemon
        // has no libdispatch worker pool and no 1 Hz pool monitor (docs/architecture.md, "Threads").
        do {
            try JobThreads.unsafeInstallAsGlobalExecutor(name: "jobs")
        } catch .untestedCompiler {
            Self.printError("deeplinkerd: warning: \(GlobalExecutorHookError.untestedCompiler)")
        } catch {
            Self.printError("deeplinkerd: \(error)")
            Glibc.exit(1)
        }
        if let arguments = DaemonArguments.parse(Array(CommandLine.arguments.dropFirst())) {
            Glibc.exit(await run(arguments))
        }
        await main(nil)
    }

    /// Writes `line` and a newline to standard error, unbuffered (the daemon may exit right after).
    static func printError(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = Glibc.write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }

    func validate() throws {
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError(Self.unknownLevel(logLevel, from: "--log-level"))
        }
    }

    static func unknownLevel(_ level: String, from source: String) -> String {
        "unknown log level '\(level)' (\(source)); use one of: \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))"
    }

    func run() async throws {
        if printIntrospection {
            print(DeeplinkerAPI.introspectionXML, terminator: "")
            return
        }
        let arguments = DaemonArguments(configDirectory: configDir, stateDirectory: stateDir, busAddress: busAddress, logLevel: logLevel)
        let status = await Self.run(arguments)
        if status != 0 { throw ExitCode(status) }
    }
}
