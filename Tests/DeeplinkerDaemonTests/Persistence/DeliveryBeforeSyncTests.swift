import DBusKit
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Testing

/// SPEC §6 asks for `delivering` to be recorded before the send, §3 for a reply only once the
/// invocation is durable. The daemon meets both without the delivery waiting for the disk: the
/// route goes to an active app once SQLite's transaction is committed (written, not synced), while
/// the log's fsync runs on its own thread, and the caller's reply follows the fsync.
@Suite struct DeliveryBeforeSyncTests {
    let recipes = TestRouteFiles.recipes

    @Test("an active app gets its route while the log's sync is held; the OpenURL reply waits for the sync")
    func deliveryOverlapsTheSync() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)], startDaemon: false) { f in
            let gate = HeldGate()
            // Open on every way out, or the daemon's stop would wait for the held sync forever.
            defer { gate.open() }
            let store = try SQLiteInvocationStore(directory: f.stateDir, historyLimit: 10_000, beforeBatch: nil, beforeSync: gate.pass)
            try await f.startDaemon(store: store)
            let app = try await f.activeStandIn(recipes)
            defer { app.close() }

            gate.close()
            // Both replies come back on the client's loop thread in the order the daemon wrote
            // them, so a barrier call answered after the OpenURL was read shows whether its reply
            // had gone out by then.
            let replies = Recorder<String>()
            let answer = Locked<[DBusValue]>([])
            func start(_ member: String, _ arguments: [DBusValue], _ then: @escaping @Sendable ([DBusValue]) -> Void = { _ in }) throws {
                let message = try DBusMessage.methodCall(
                    destination: DaemonFixture.busName, path: DaemonFixture.objectPath, interface: DaemonFixture.interface,
                    member: member, arguments: arguments)
                f.client.startCall(message, timeout: .seconds(20)) { result in
                    then((try? result.get().arguments()) ?? [])
                    replies.put(member)
                }
            }
            try start("OpenURL", [.string(recipes), .string("bestrecipes://recipe/7")]) { answer.set($0) }
            let delivered = try await app.received.first { $0.target == "recipe" }
            #expect(delivered.parameters["id"] == "7")
            _ = try await gate.held.first { _ in true }
            try start("ListApps", [])
            _ = try await replies.first { $0 == "ListApps" }
            #expect(!replies.all.contains("OpenURL"), "no reply while the invocation is not durable")
            let stored = try await store.invocation(id: delivered.invocationID)
            #expect(stored != nil, "what was delivered is in the database (a restarted daemon finds it)")

            gate.open()
            _ = try await replies.first { $0 == "OpenURL" }
            #expect(DaemonFixture.RouteReply(answer.value).id == delivered.invocationID)
            #expect(replies.all == ["ListApps", "OpenURL"])
            try await f.waitStatus(delivered.invocationID, "delivered")
        }
    }

    @Test("a sync that hangs for longer than the watchdog interval stops the pings, and the daemon says why")
    func hungSyncStopsTheWatchdog() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)], startDaemon: false) { f in
            let gate = HeldGate()
            defer { gate.open() }
            let log = CapturedLog()
            let store = try SQLiteInvocationStore(directory: f.stateDir, historyLimit: 10_000, beforeBatch: nil, beforeSync: gate.pass)
            var environment = f.configuration.environment
            environment["WATCHDOG_USEC"] = "100000"  // a ping every 50 ms
            try await f.startDaemon(environment: environment, logger: log.logger(), store: store)

            gate.close()
            let call = Task { try await f.openURL(recipes, "bestrecipes://recipe/8") }
            _ = try await gate.held.first { _ in true }
            let message = try await log.recorded.first { $0.hasPrefix("not feeding the watchdog") }
            #expect(message.contains("the state database's sync has hung for"), "\(message)")
            gate.open()
            _ = try await call.value
        }
    }
}
