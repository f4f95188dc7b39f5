import DBusKit
import Foundation
import Testing

/// Structured shutdown: a stop waits (bounded) for deliveries in flight, so an acknowledgement that
/// arrives while the daemon stops is stored instead of being redelivered after the next start.
@Suite struct ShutdownTests {
    let recipes = TestRouteFiles.recipes

    @Test("a delivery in flight when the daemon stops is acknowledged and stored as delivered")
    func stopWaitsForADeliveryInFlight() async throws {
        let directory = (NSTemporaryDirectory() as NSString).appendingPathComponent("deeplinker-stop-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notify = try NotifySocket(directory: directory)
        try await DaemonFixture.withDaemon(
            routeFiles: [recipes: try TestRouteFiles.shipped(recipes)], environment: ["NOTIFY_SOCKET": notify.path]) { f in
            let app = try await f.activeStandIn(recipes, answer: .hang)
            let reply = try await f.openURL(recipes, "bestrecipes://recipe/1")
            _ = try await app.received.first { $0.invocationID == reply.id }

            let stopping = Task { await f.stopDaemon() }
            var pings = 0
            while let message = notify.nextState(pings: &pings), message != "STOPPING=1" {}
            app.answerHeldCalls()
            await stopping.value

            try await f.startDaemon()
            let row = try await f.history(recipes).first { $0.id == reply.id }
            #expect(row?.status == "delivered", "the acknowledgement that came during the stop was stored")
            app.close()
        }
    }
}
