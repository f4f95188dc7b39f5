import DBusKit
import DeeplinkerDaemon
import Foundation
import Testing
import DeeplinkerTestSupport

/// `deeplinkerd` under a service manager (SPEC §9): the notify protocol over `NOTIFY_SOCKET`,
/// and the end of the process when the bus goes away (SPEC §4).
@Suite("deeplinkerd and the service manager")
struct ServiceManagerProtocolTests {
    @Test("READY, STATUS, RELOADING with MONOTONIC_USEC then READY (Reload and SIGHUP), STATUS on a change, STOPPING, and WATCHDOG pings")
    func notifyOrder() async throws {
        let directory = try DeeplinkerdTests.temporaryDirectory()
        let notify = try NotifySocket(directory: directory)
        let daemon = try await DaemonChild(
            environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "400000"],
            configDir: DeeplinkerdTests.configDir, stateDir: directory + "/state")
        var pings = 0
        #expect(notify.nextState(pings: &pings) == "READY=1")
        #expect(notify.nextState(pings: &pings) == "STATUS=2 apps loaded, 0 routes pending")

        // A reload through the bus method, then one through SIGHUP.
        for trigger in ["Reload", "SIGHUP"] {
            if trigger == "Reload" { try await daemon.call("Reload") } else { daemon.signal(SIGHUP) }
            let reloading = try #require(notify.nextState(pings: &pings), "no RELOADING for \(trigger)")
            let lines = reloading.split(separator: "\n")
            #expect(lines.first == "RELOADING=1", "\(trigger): \(reloading)")
            let monotonic = lines.dropFirst().first.flatMap { $0.hasPrefix("MONOTONIC_USEC=") ? Int64($0.dropFirst(15)) : nil }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nowMicroseconds = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
            #expect(monotonic.map { $0 > 0 && $0 <= nowMicroseconds } == true, "\(trigger): \(reloading)")
            #expect(notify.nextState(pings: &pings) == "READY=1", "\(trigger)")
        }

        // A route for an app that is not running is pending: STATUS says so (once).
        try await daemon.call("OpenURL", [.string(""), .string("bestrecipes://recipe/12")])
        #expect(notify.nextState(pings: &pings) == "STATUS=2 apps loaded, 1 routes pending")

        daemon.signal(SIGTERM)
        #expect(notify.nextState(pings: &pings) == "STOPPING=1")
        let (status, stderr) = try await daemon.waitForExit()
        #expect(status == 0, "stderr: \(stderr)")
        // The first ping goes out as the daemon starts, then every 200 ms; none is missing.
        while let late = notify.next(timeout: .zero) { if late == "WATCHDOG=1" { pings += 1 } }
        #expect(pings >= 1)
    }

    @Test("without WATCHDOG_USEC the daemon sends READY but no watchdog pings")
    func noWatchdogWithoutPeriod() async throws {
        let directory = try DeeplinkerdTests.temporaryDirectory()
        let notify = try NotifySocket(directory: directory)
        let daemon = try await DaemonChild(
            environment: ["NOTIFY_SOCKET": notify.path], configDir: DeeplinkerdTests.configDir, stateDir: directory + "/state")
        #expect(notify.next() == "READY=1")
        #expect(notify.next()?.hasPrefix("STATUS=") == true)
        daemon.signal(SIGTERM)
        // Everything up to the stop, in order: no ping in between.
        #expect(notify.next() == "STOPPING=1")
        _ = try await daemon.waitForExit()
    }

    @Test("losing the bus ends the daemon at once with a non-zero status")
    func busLossExits() async throws {
        let directory = try DeeplinkerdTests.temporaryDirectory()
        let notify = try NotifySocket(directory: directory)
        let daemon = try await DaemonChild(
            environment: ["NOTIFY_SOCKET": notify.path], configDir: DeeplinkerdTests.configDir, stateDir: directory + "/state")
        #expect(notify.next() == "READY=1")
        let started = ContinuousClock.now
        daemon.bus.stop()
        let (status, stderr) = try await daemon.waitForExit()
        #expect(status != 0)
        #expect(stderr.contains("lost the connection to the bus"), "stderr: \(stderr)")
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test("--log-level takes the seven levels and refuses anything else with a clear message", arguments: ["bogus", "warn", "INFO"])
    func unknownLogLevelRefused(level: String) async throws {
        let child = try TestProcess(product: "deeplinkerd", arguments: ["--log-level", level, "--bus-address", "unix:path=/nonexistent"], environment: DeeplinkerdTests.environment())
        let (status, stderr) = try await child.finish()
        #expect(status != 0)
        #expect(stderr.contains("unknown log level '\(level)'"), "stderr: \(stderr)")
        #expect(stderr.contains("trace, debug, info, notice, warning, error, critical"))
    }

    @Test("an unknown DEEPLINKER_LOG_LEVEL is refused too")
    func unknownLogLevelVariableRefused() async throws {
        let child = try TestProcess(product: "deeplinkerd", arguments: ["--bus-address", "unix:path=/nonexistent"],
            environment: DeeplinkerdTests.environment(["DEEPLINKER_LOG_LEVEL": "loud"]))
        let (status, stderr) = try await child.finish()
        #expect(status == 2)
        #expect(stderr.contains("unknown log level 'loud' (DEEPLINKER_LOG_LEVEL)"), "stderr: \(stderr)")
    }
}
