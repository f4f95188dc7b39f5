import DBusKit
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Testing

/// The bus goes away while callers wait for durable replies: the sync thread's report still
/// reaches the bus thread's queue, which drops the replies of a closed connection there; nothing
/// but the loop thread touches the connection (run under ThreadSanitizer: `scripts/test
/// --sanitize thread --filter RepliesInFlightTests`).
@Suite struct RepliesInFlightTests {
    let recipes = TestRouteFiles.recipes

    @Test("the daemon's connection closes while 32 OpenURL replies wait for the sync: every caller is answered by the bus, no reply is written after the close")
    func connectionClosesWithRepliesInFlight() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)], startDaemon: false) { f in
            let gate = HeldGate()
            // Open on every way out, or the store's close would wait for the held sync forever.
            defer { gate.open() }
            let store = try SQLiteInvocationStore(directory: f.stateDir, historyLimit: 10_000, beforeBatch: nil, beforeSync: gate.pass)
            let daemon = try await f.startDaemon(store: store)
            gate.close()
            let answers = Recorder<String>()
            let callers = 32
            for n in 0..<callers {
                let message = try DBusMessage.methodCall(
                    destination: DaemonFixture.busName, path: DaemonFixture.objectPath, interface: DaemonFixture.interface,
                    member: "OpenURL", arguments: [.string(recipes), .string("bestrecipes://recipe/\(n)")])
                f.client.startCall(message, timeout: .seconds(20)) { result in
                    switch result {
                    case .success: answers.put("reply")
                    case .failure(let error): answers.put(error.name)
                    }
                }
            }
            _ = try await gate.held.first { _ in true }
            daemon.connection.close()
            gate.open()
            let all = try await answers.wait(count: callers) { _ in true }
            #expect(!all.contains("reply"), "a reply made after the close is not written: \(all)")
            #expect(all.allSatisfy { $0 == DBusError.noReplyName || $0 == DBusError.serviceUnknownName }, "\(Set(all))")
            try await f.client.waitUntilUnowned(DaemonFixture.busName)
            try await f.stopDaemon()
        }
    }
}
