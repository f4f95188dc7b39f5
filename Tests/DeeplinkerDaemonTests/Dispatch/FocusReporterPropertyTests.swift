import DBusKit
import DeeplinkerClient
import DeeplinkerTestSupport
import Foundation
import Testing

/// The daemon's `RouteDirectories`, `StateDirectory` and `FocusReporter` properties (SPEC §3),
/// which `deeplinker doctor` reads, on a real bus.
@Suite struct FocusReporterPropertyTests {
    @Test func theFocusReporterIsTheLastCallerOfSetFocusedAppUntilItLeaves() async throws {
        try await DaemonFixture.withDaemon { f in
            let proxy = try f.proxy()
            defer { proxy.connection.close() }
            let before = try await proxy.properties()
            #expect(before.routeDirectories == [f.configDir])
            #expect(before.stateDirectory == f.stateDir)
            #expect(before.focusReporter == nil)

            let reporter = try f.connect()
            let start = Int64(Date().timeIntervalSince1970 * 1_000_000)
            _ = try await f.call("SetFocusedApp", [.string("org.example.Focus")], from: reporter)
            let first = try #require(try await proxy.properties().focusReporter)
            let command = try String(contentsOfFile: "/proc/self/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(first.sender == reporter.uniqueName)
            #expect(first.command == command)
            #expect(first.appID == "org.example.Focus")
            #expect(first.reportedAtMicroseconds >= start)
            _ = try await f.call("SetFocusedApp", [.string("")], from: reporter)
            let second = try #require(try await proxy.properties().focusReporter)
            #expect(second.appID == "" && second.command == command && second.reportedAtMicroseconds >= first.reportedAtMicroseconds)

            // The reporter leaves the bus: nobody reports any more.
            let name = reporter.uniqueName
            reporter.close()
            try await f.client.waitUntilUnowned(name)
            #expect(try await proxy.properties().focusReporter == nil)
        }
    }
}
