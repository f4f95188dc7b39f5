import DBusKit
import DeeplinkerTestSupport
import DeeplinkerClient
import Foundation
import Testing

/// `simulate-app`: the pending route arrives once, when the app becomes active.
@Suite struct SimulateAppTests {
    let app = "com.bestrecipes.App"

    @Test func pendingRouteIsDeliveredOnceOnBecameActive() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let watcher = try f.proxy()
            defer { watcher.connection.close() }
            let changes = Recorder<InvocationChange>()
            try await watcher.onInvocationChanged { changes.put($0) }

            let sim = try f.spawn(["simulate-app", app])
            defer { sim.stop() }
            try await sim.waitForLine(containing: "simulating \(app)")
            let opened = try await f.run(["open", "bestrecipes://recipe/12", "--json"])
            let id = try #require(try DaemonFixture.json(opened.stdout)["invocation_id"] as? String)
            _ = try await changes.next(where: { $0.invocationID == id && $0.status == "pending" })
            #expect(try await f.run(["state", app]).stdout == "inactive\n")
            // Running but not active: the daemon asks the app to come to the front first.
            let raised = try await sim.waitForLine(containing: "activate ")
            #expect(raised == "activate (present the window) invocation=\(id)")

            sim.send("a")
            let line = try await sim.waitForLine(containing: "route ")
            #expect(line.hasPrefix("route recipe(id=12) source=url invocation=\(id)"))
            _ = try await changes.next(where: { $0.invocationID == id && $0.status == "delivered" })
            #expect(try await f.run(["pending", app]).stdout == "nothing pending for \(app)\n")

            // Resign, background and come back: nothing is delivered again; a new link is, at once.
            sim.send("r")
            sim.send("b")
            sim.send("f")
            sim.send("a")
            try await sim.waitForLine(containing: "state active")
            let second = try await f.run(["open", "bestrecipes://search?q=pie", "--json"])
            let secondID = try #require(try DaemonFixture.json(second.stdout)["invocation_id"] as? String)
            let next = try await sim.waitForLine(containing: "route ")
            #expect(next.contains("invocation=\(secondID)"), "the first route came twice: \(next)")
            sim.send("q")
            #expect(try await sim.waitForExit() == 0)
        }
    }

    @Test func rejectedRoutesStayPendingAndJSONEvents() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let refusing = try f.spawn(["simulate-app", app, "--reject", "--json"])
            try await refusing.waitForLine(containing: #""event":"ready""#)
            _ = try await f.run(["open", "bestrecipes://recipe/4"])
            refusing.send("a")
            let refused = try await refusing.waitForLine(containing: #""event":"refused""#)
            #expect(refused.contains(#""target":"recipe""#))
            refusing.send("q")
            #expect(try await refusing.waitForExit() == 0)

            let pending = try await f.run(["pending", app, "--json"])
            #expect(try DaemonFixture.json(pending.stdout)["present"] as? Bool == true)

            let accepting = try f.spawn(["simulate-app", app, "--active", "--json", "--exit-after", "1"])
            let route = try DaemonFixture.json(try await accepting.waitForLine(containing: #""event":"route""#))
            let body = try #require(route["route"] as? [String: Any])
            #expect(body["parameters"] as? [String: String] == ["id": "4"])
            #expect(try await accepting.waitForExit() == 0)
        }
    }
}
