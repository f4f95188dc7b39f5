import DBusKit
import DeeplinkerDaemon
import FoundationEssentials
import Glibc
import Logging
import ServiceLifecycle
import TaskThreads

extension Deeplinkerd {
    /// Runs the daemon with parsed options until SIGTERM or SIGINT (SIGHUP reloads); returns the
    /// exit status.
    static func run(_ arguments: DaemonArguments) async -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let mallocRefusals = MallocTuning.apply(environment: environment)
        let level: Logger.Level
        if let logLevel = arguments[.logLevel], let parsed = Logger.Level(rawValue: logLevel) {
            level = parsed
        } else if let variable = environment["DEEPLINKER_LOG_LEVEL"], !variable.isEmpty {
            guard let parsed = Logger.Level(rawValue: variable) else {
                Self.printError("deeplinkerd: \(Self.unknownLevel(variable, from: "DEEPLINKER_LOG_LEVEL"))")
                return 2
            }
            level = parsed
        } else {
            level = .info
        }
        let format = DaemonLogHandler.format(for: environment)
        LoggingSystem.bootstrap { _ in DaemonLogHandler(format: format, level: level) }
        let logger = Logger(label: "deeplinkerd")
        for refusal in mallocRefusals { logger.warning("\(refusal)") }
        SignalMask.unblockTerminationSignals()
        // Trap the signals before anything else: the name is owned before the service group runs,
        // and a SIGTERM or SIGHUP in between must not kill the process by default. A thread of its
        // own reads them (a dispatch signal source would start libdispatch's worker pool).
        let signals: AsyncStream<Int32>
        do {
            signals = try SignalThread.trap([SIGTERM, SIGINT, SIGHUP])
        } catch {
            Self.printError("deeplinkerd: \(error)")
            return 1
        }

        var address = arguments[.busAddress]
        var privateBus: PrivateBus?
        if address == nil && !SessionBus.isAvailable(environment) {
            let bus: PrivateBus
            do {
                bus = try PrivateBus()
            } catch {
                Self.printError("deeplinkerd: cannot start a private bus: \(error)")
                return 1
            }
            privateBus = bus
            address = bus.address
            print("No session bus: started a private one. To talk to this daemon, run:")
            print("export DBUS_SESSION_BUS_ADDRESS='\(bus.address)'")
            fflush(nil)
        }
        let daemon: Daemon
        do {
            daemon = try await buildDaemon(
                DaemonConfiguration(configDirectory: arguments[.configDirectory], stateDirectory: arguments[.stateDirectory], busAddress: address), logger: logger)
        } catch {
            Self.printError("deeplinkerd: \(error)")
            return 1
        }
        // A stop waits up to the daemon's shutdownTimeout for work in flight; past twice that the
        // group cancels it, so SIGTERM always ends the process in bounded time.
        // Named here: without a name the group describes the service with "\(service)", a dozen
        // protocol conformance scans on the way to the first reply (about 0.15 ms of CPU in a
        // `perf record` profile of `deeplinker-bench coldstart`; docs/performance.md, "Cold start").
        var groupConfiguration = ServiceGroupConfiguration(services: [.init(service: daemon, serviceName: "deeplinkerd")], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(10)
        groupConfiguration.maximumCancellationDuration = .seconds(5)
        let group = ServiceGroup(configuration: groupConfiguration)
        let handler = Task {
            for await signal in signals {
                if signal == SIGHUP {
                    daemon.reload()
                } else {
                    await group.triggerGracefulShutdown()
                }
            }
        }
        defer { handler.cancel() }
        do {
            try await group.run()
        } catch {
            // Lost the bus, or a sync of the database failed (SPEC §9): exit non-zero at once so the
            // service manager or bus activation restarts us.
            privateBus?.stop()
            Self.printError("deeplinkerd: \(error)")
            return 1
        }
        privateBus?.stop()
        return 0
    }
}
