import DBusKit
import Foundation
import Synchronization
import Testing
import DeeplinkerTestSupport

/// Durability across restarts: graceful (cancel + a new `buildDaemon` on the same state dir) and
/// `kill -9` of the real `deeplinkerd` binary.
@Suite("Integration: restart and durability")
struct IntegrationRestartTests {
    let recipes = TestRouteFiles.recipes
    let apartments = TestRouteFiles.apartments

    @Test("pending route, history and app states survive a restart; states only for the same unique name")
    func restartKeepsPendingHistoryAndStates() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [
            recipes: try TestRouteFiles.shipped(recipes),
            apartments: try TestRouteFiles.shipped(apartments),
        ]) { f in
            let app = try await f.activeStandIn(recipes)
            let delivered = try await f.openURL(recipes, "bestrecipes://recipe/1")
            try await f.waitStatus(delivered.id, "delivered")
            try app.emit("DidEnterBackground")
            #expect(try await app.stateSeenByDaemon() == "background")
            let waiting = try await f.openURL(recipes, "bestrecipes://recipe/2?country=IT")
            let pendingBefore = try #require(try await f.pending(recipes))
            let replaced = try await f.activeStandIn(apartments)
            let historyBefore = try await f.history()

            try await f.stopDaemon()
            // While the daemon is down, another process takes over the apartments name.
            try await replaced.connection.releaseName(apartments)
            let successor = try await f.standIn(apartments)
            try await f.startDaemon()

            #expect(try await f.appState(recipes) == "background")
            #expect(try await f.appState(apartments) == "inactive")
            #expect(try await f.pending(recipes) == pendingBefore)
            #expect(pendingBefore.id == waiting.id)
            let historyAfter = try await f.history()
            #expect(historyAfter == historyBefore)
            #expect(historyAfter.first { $0.id == delivered.id }?.status == "delivered")
            #expect(historyAfter.first { $0.id == waiting.id }?.status == "pending")

            try app.becomeActive()
            try await f.waitStatus(waiting.id, "delivered")
            let calls = app.received.all
            #expect(calls.map(\.invocationID) == [delivered.id, waiting.id])
            #expect(calls.last?.parameters == ["id": "2", "country": "IT"])
            #expect(calls.last?.isRedelivery == false)
            // The old apartments owner's signals no longer count; the successor's do.
            try replaced.becomeActive()
            #expect(try await replaced.stateSeenByDaemon() == "inactive")
            try successor.becomeActive()
            #expect(try await successor.stateSeenByDaemon() == "active")
            app.close()
            replaced.close()
            successor.close()
        }
    }

    @Test("published shortcuts survive a restart")
    func publishedShortcutsSurviveARestart() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)]) { f in
            try await f.call("SetShortcuts", [.string(recipes), .strings(["com.bestrecipes.favorites"])])
            try await f.stopDaemon()
            try await f.startDaemon()
            let unavailable = try await f.failingCall("PerformShortcut", [.string(recipes), .string("com.bestrecipes.search")])
            #expect(unavailable.name == "org.deeplinker.Error.ShortcutUnavailable")
            let favorites = try await f.call("PerformShortcut", [.string(recipes), .string("com.bestrecipes.favorites")])
            #expect(DaemonFixture.RouteReply(favorites).target == "home")
        }
    }

    @Test("a delivery in flight when the daemon stops is delivered again after restart, flagged as redelivery")
    func inFlightDeliveryRedeliveredAfterRestart() async throws {
        // max-attempts = 1: an interrupted attempt must not count as a refusal (it would be `failed`).
        try await DaemonFixture.withDaemon(routeFiles: [
            recipes: try TestRouteFiles.shipped(recipes, ["delivery-timeout": "\"60s\"", "max-attempts": "1"])
        ]) { f in
            let app = try await f.activeStandIn(recipes, answer: .hang)
            let reply = try await f.openURL(recipes, "bestrecipes://recipe/5")
            _ = try await app.received.first { $0.invocationID == reply.id }
            try await f.stopDaemon()
            app.setAnswer(.acknowledge)
            try await f.startDaemon()
            // Same owner, restored active: the route goes out again at once, same id, flagged.
            try await f.waitStatus(reply.id, "delivered")
            let calls = app.received.all
            #expect(calls.map(\.invocationID) == [reply.id, reply.id])
            #expect(calls.map(\.isRedelivery) == [false, true])
            // And once acknowledged it is never delivered again, not even after another restart.
            try await f.stopDaemon()
            try await f.startDaemon()
            try app.becomeActive()
            let barrier = try await f.barrier(app, url: "bestrecipes://home")
            #expect(app.received.all.map(\.invocationID) == [reply.id, reply.id, barrier])
            app.close()
        }
    }

    // MARK: - kill -9

    @Test("kill -9 during concurrent OpenURL calls: every acknowledged invocation is in history after restart")
    func killNineLosesNothingAcknowledged() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)], startDaemon: false) { f in
            // The real deeplinkerd, started twice on the same state.
            let first = try await f.spawnDaemonProcess()

            let callers = 8
            let killAfter = 1500
            let acknowledged = Recorder<String>()
            let failures = Recorder<String>()
            let killed = KillSwitch()
            let connections = try (0..<callers).map { _ in try DBusConnection(address: f.bus.address) }
            await withTaskGroup(of: Void.self) { group in
                for (caller, connection) in connections.enumerated() {
                    group.addTask {
                        var i = 0
                        while true {
                            i += 1
                            do {
                                let reply = try await f.openURL(recipes, "bestrecipes://recipe/\(caller * 1_000_000 + i)", from: connection)
                                acknowledged.put(reply.id)
                                if acknowledged.count(where: { _ in true }) >= killAfter, killed.fire() {
                                    first.signal(SIGKILL)
                                }
                            } catch {
                                failures.put((error as? DBusError)?.name ?? "\(error)")
                                return
                            }
                        }
                    }
                }
            }
            let status = try await first.waitForExit()
            #expect(first.endedBySignal && status == SIGKILL)

            let second = try await f.spawnDaemonProcess()
            let stored = Set(try await f.history(recipes).map(\.id))
            let acked = acknowledged.all
            let lost = acked.filter { !stored.contains($0) }
            let inFlight = failures.all
            print("kill -9: \(callers) callers, acknowledged \(acked.count), lost \(lost.count), stored \(stored.count) (\(stored.count - (acked.count - lost.count)) stored but unacknowledged), \(inFlight.count) calls cut off")
            #expect(acked.count >= killAfter)
            #expect(lost.isEmpty, "lost acknowledged invocations: \(lost.prefix(5))")
            #expect(Set(acked).count == acked.count)
            // The newest stored invocation is the pending route; everything older was superseded.
            let pending = try #require(try await f.pending(recipes))
            #expect(stored.contains(pending.id))
            second.stop()
            for connection in connections { connection.close() }
        }
    }
}

/// Fires once.
final class KillSwitch: Sendable {
    private let fired = Atomic<Bool>(false)

    /// True for the first caller only.
    func fire() -> Bool { !fired.exchange(true, ordering: .acquiringAndReleasing) }
}
