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

    @Flag(name: .customLong("print-introspection"), help: .hidden)
    var printIntrospection = false

    func run() async throws {
        if printIntrospection {
            print(DeeplinkerAPI.introspectionXML, terminator: "")
            return
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = ProcessInfo.processInfo.environment["DEEPLINKER_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
            return handler
        }
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
        let group = ServiceGroup(services: [daemon], gracefulShutdownSignals: [], logger: logger)
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
        try await group.run()
        privateBus?.stop()
    }
}
