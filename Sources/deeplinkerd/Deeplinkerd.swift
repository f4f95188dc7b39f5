import ArgumentParser
import DBusKit
import DeeplinkerDaemon
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// `deeplinkerd`: parses flags, then runs what `buildDaemon` returns under a ServiceGroup.
@main
struct Deeplinkerd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deeplinkerd",
        abstract: "The Deeplinker daemon: routes app invocations and delivers them once the app is active.",
        version: DeeplinkerAPI.version)

    @Option(name: .customLong("config-dir"), help: "Read route files only from this directory.")
    var configDir: String?

    @Option(name: .customLong("state-dir"), help: "Keep the database here (default $XDG_STATE_HOME/deeplinker).")
    var stateDir: String?

    @Option(name: .customLong("bus-address"), help: "Connect to this bus instead of the session bus.")
    var busAddress: String?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp("Log this level and above: trace, debug, info, notice, warning, error or critical (default info, or $DEEPLINKER_LOG_LEVEL).", valueName: "LEVEL"))
    var logLevel: String?

    @Flag(name: .customLong("print-introspection"), help: .hidden)
    var printIntrospection = false

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
        let environment = ProcessInfo.processInfo.environment
        MallocTuning.apply(environment: environment)
        let level: Logger.Level
        if let logLevel {
            level = Logger.Level(rawValue: logLevel)!
        } else if let variable = environment["DEEPLINKER_LOG_LEVEL"], !variable.isEmpty {
            guard let parsed = Logger.Level(rawValue: variable) else {
                FileHandle.standardError.write(Data("deeplinkerd: \(Self.unknownLevel(variable, from: "DEEPLINKER_LOG_LEVEL"))\n".utf8))
                throw ExitCode(2)
            }
            level = parsed
        } else {
            level = .info
        }
        let format = DaemonLogHandler.format(for: environment)
        LoggingSystem.bootstrap { _ in DaemonLogHandler(format: format, level: level) }
        let logger = Logger(label: "deeplinkerd")
        SignalMask.unblockTerminationSignals()
        // Trap the signals before anything else: the name is owned before the service group runs,
        // and a SIGTERM or SIGHUP in between must not kill the process by default.
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint, .sighup)

        var address = busAddress
        var privateBus: PrivateBus?
        if address == nil && !SessionBus.isAvailable(ProcessInfo.processInfo.environment) {
            let bus = try PrivateBus()
            privateBus = bus
            address = bus.address
            print("No session bus: started a private one. To talk to this daemon, run:")
            print("export DBUS_SESSION_BUS_ADDRESS='\(bus.address)'")
            fflush(nil)
        }
        let daemon: Daemon
        do {
            daemon = try await buildDaemon(
                DaemonConfiguration(configDirectory: configDir, stateDirectory: stateDir, busAddress: address), logger: logger)
        } catch let error as DaemonError {
            FileHandle.standardError.write(Data("deeplinkerd: \(error)\n".utf8))
            throw ExitCode(1)
        }
        // A stop waits up to the daemon's shutdownTimeout for work in flight; past twice that the
        // group cancels it, so SIGTERM always ends the process in bounded time.
        var groupConfiguration = ServiceGroupConfiguration(services: [.init(service: daemon)], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(10)
        groupConfiguration.maximumCancellationDuration = .seconds(5)
        let group = ServiceGroup(configuration: groupConfiguration)
        let handler = Task {
            for await signal in signals {
                if signal == .sighup {
                    daemon.reload()
                } else {
                    await group.triggerGracefulShutdown()
                }
            }
        }
        defer { handler.cancel() }
        do {
            try await group.run()
        } catch let error as DaemonError {
            // Lost the bus: exit non-zero at once so the service manager or bus activation restarts us.
            privateBus?.stop()
            FileHandle.standardError.write(Data("deeplinkerd: \(error)\n".utf8))
            throw ExitCode(1)
        }
        privateBus?.stop()
    }
}
