import DBusKit
import DeeplinkerTestSupport
import Foundation
import Testing

/// Structured shutdown: a stop waits (bounded) for deliveries in flight, so an acknowledgement that
/// arrives while the daemon stops is stored instead of being redelivered after the next start.
@Suite struct ShutdownTests {
    let recipes = TestRouteFiles.recipes

    @Test("a delivery in flight when the daemon stops is acknowledged and stored as delivered")
    func stopWaitsForADeliveryInFlight() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)], startDaemon: false) { f in
            let notify = try NotifySocket(directory: f.root)
            try await f.startDaemon(environment: ["NOTIFY_SOCKET": notify.path])
            let app = try await f.activeStandIn(recipes, answer: .hang)
            let reply = try await f.openURL(recipes, "bestrecipes://recipe/1")
            _ = try await app.received.first { $0.invocationID == reply.id }

            let stopping = Task { try await f.stopDaemon() }
            var pings = 0
            while let message = notify.nextState(pings: &pings), message != "STOPPING=1" {}
            app.answerHeldCalls()
            try await stopping.value

            try await f.startDaemon()
            let row = try await f.history(recipes).first { $0.id == reply.id }
            #expect(row?.status == "delivered", "the acknowledgement that came during the stop was stored")
            app.close()
        }
    }
}
