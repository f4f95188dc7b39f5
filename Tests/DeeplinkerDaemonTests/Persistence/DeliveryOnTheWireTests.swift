import DBusKit
import DeeplinkerTestSupport
import Foundation
import Testing

/// What the bus sees of one link to an active `activate-action` app, in the order the daemon sent
/// it, read by a real `dbus-monitor`: the app's `ActivateAction` goes out as soon as the commit is
/// written, ahead of the commit's `InvocationChanged` signals, and the caller's reply comes last
/// (after the log's fsync).
@Suite struct DeliveryOnTheWireTests {
    let recipes = TestRouteFiles.recipes

    @Test("ActivateAction, then the InvocationChanged signals, then the OpenURL reply")
    func deliveryLeadsTheSignalsAndTheReplyFollows() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)]) { f in
            let app = try await f.activeStandIn(recipes)
            defer { app.close() }
            let daemon = try #require(f.daemonUniqueName)
            let monitor = try TestProcess(
                executable: "/usr/bin/dbus-monitor", arguments: ["--address", f.bus.address, "--profile"],
                environment: ProcessInfo.processInfo.environment)
            defer { monitor.stop() }
            // dbus-monitor is told NameLost for its own name once it has become a monitor.
            try await monitor.waitForLine(containing: "\tNameLost")

            let reply = try await f.openURL(recipes, "bestrecipes://recipe/9")
            _ = try await app.received.first { $0.invocationID == reply.id }
            try await f.waitStatus(reply.id, "delivered")
            try await monitor.waitForLine(containing: "\tActivateAction")
            // The client has its reply already; the monitor prints it in bus order, after the call.
            let client = f.client.uniqueName
            try await monitor.waitForLine(containing: "\t\(daemon)\t\(client)\t")

            // The daemon's messages, in the order the bus routed them: "mc"/"sig"/"mr" and member.
            let fromDaemon = monitor.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
                .filter { $0.count > 3 && $0[3] == daemon }
            let call = try #require(fromDaemon.firstIndex { $0[0] == "mc" && $0.last == "ActivateAction" })
            let firstSignal = try #require(fromDaemon.firstIndex { $0[0] == "sig" && $0.last == "InvocationChanged" })
            #expect(call < firstSignal, "the delivery leads the signals: \(fromDaemon.map { $0.joined(separator: " ") })")
            // The reply to OpenURL (the first "mr" to the fixture's client after the delivery) follows both.
            let openReply = try #require(fromDaemon[call...].firstIndex { $0[0] == "mr" && $0[4] == client })
            #expect(firstSignal < openReply, "\(fromDaemon.map { $0.joined(separator: " ") })")
        }
    }
}
