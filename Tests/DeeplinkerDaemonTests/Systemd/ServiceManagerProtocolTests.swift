import DBusKit
import DeeplinkerDaemon
import Foundation
import Testing
import DeeplinkerTestSupport

/// `deeplinkerd` under a service manager (SPEC §9): the notify protocol over `NOTIFY_SOCKET`,
/// and the end of the process when the bus goes away (SPEC §4).
@Suite("deeplinkerd and the service manager")
struct ServiceManagerProtocolTests {
    /// The real `deeplinkerd` on the shipped route files with `NOTIFY_SOCKET` (and `extra`) set.
    static func withNotifiedDaemon(
        _ extra: [String: String] = [:], _ body: (DaemonFixture, NotifySocket, TestProcess) async throws -> Void
    ) async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { f in
            let notify = try NotifySocket(directory: f.root)
            let daemon = try await f.spawnDaemonProcess(environment: extra.merging(["NOTIFY_SOCKET": notify.path]) { $1 })
            try await body(f, notify, daemon)
        }
    }

    @Test("READY, STATUS, RELOADING with MONOTONIC_USEC then READY (Reload and SIGHUP), STATUS on a change, STOPPING, and WATCHDOG pings")
    func notifyOrder() async throws {
        try await Self.withNotifiedDaemon(["WATCHDOG_USEC": "400000"]) { f, notify, daemon in
            var pings = 0
            #expect(notify.nextState(pings: &pings) == "READY=1")
            #expect(notify.nextState(pings: &pings) == "STATUS=2 apps loaded, 0 routes pending")

            // A reload through the bus method, then one through SIGHUP.
            for trigger in ["Reload", "SIGHUP"] {
                if trigger == "Reload" { try await f.call("Reload") } else { daemon.signal(SIGHUP) }
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
            try await f.call("OpenURL", [.string(""), .string("bestrecipes://recipe/12")])
            #expect(notify.nextState(pings: &pings) == "STATUS=2 apps loaded, 1 routes pending")

            daemon.signal(SIGTERM)
            #expect(notify.nextState(pings: &pings) == "STOPPING=1")
            let (status, stderr) = try await daemon.finish()
            #expect(status == 0, "stderr: \(stderr)")
            // The first ping goes out as the daemon starts, then every 200 ms; none is missing.
            while let late = notify.next(timeout: .zero) { if late == "WATCHDOG=1" { pings += 1 } }
            #expect(pings >= 1)
        }
    }

    @Test("without WATCHDOG_USEC the daemon sends READY but no watchdog pings")
    func noWatchdogWithoutPeriod() async throws {
        try await Self.withNotifiedDaemon { f, notify, daemon in
            #expect(notify.next() == "READY=1")
            #expect(notify.next()?.hasPrefix("STATUS=") == true)
            daemon.signal(SIGTERM)
            // Everything up to the stop, in order: no ping in between.
            #expect(notify.next() == "STOPPING=1")
            _ = try await daemon.finish()
        }
    }

    @Test("losing the bus ends the daemon at once with a non-zero status")
    func busLossExits() async throws {
        try await Self.withNotifiedDaemon { f, notify, daemon in
            #expect(notify.next() == "READY=1")
            let started = ContinuousClock.now
            f.bus.stop()
            let (status, stderr) = try await daemon.finish()
            #expect(status != 0)
            #expect(stderr.contains("lost the connection to the bus"), "stderr: \(stderr)")
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }

    @Test("--log-level takes the seven levels and refuses anything else with a clear message", arguments: ["bogus", "warn", "INFO"])
    func unknownLogLevelRefused(level: String) async throws {
        let child = try TestProcess(product: "deeplinkerd", arguments: ["--log-level", level, "--bus-address", "unix:path=/nonexistent"], environment: DaemonFixture.processEnvironment())
        let (status, stderr) = try await child.finish()
        #expect(status != 0)
        #expect(stderr.contains("unknown log level '\(level)'"), "stderr: \(stderr)")
        #expect(stderr.contains("trace, debug, info, notice, warning, error, critical"))
    }

    @Test("an unknown DEEPLINKER_LOG_LEVEL is refused too")
    func unknownLogLevelVariableRefused() async throws {
        let child = try TestProcess(product: "deeplinkerd", arguments: ["--bus-address", "unix:path=/nonexistent"],
            environment: DaemonFixture.processEnvironment(["DEEPLINKER_LOG_LEVEL": "loud"]))
        let (status, stderr) = try await child.finish()
        #expect(status == 2)
        #expect(stderr.contains("unknown log level 'loud' (DEEPLINKER_LOG_LEVEL)"), "stderr: \(stderr)")
    }
}
