import DBusKit
import DeeplinkerTestSupport
import DeeplinkerClient
import Foundation
import Testing

/// `pending`, `discard`, `history`, `apps`, `state`, `monitor`, `post-notification`.
@Suite struct QueryVerbTests {
    let app = "com.bestrecipes.App"

    @Test func pendingDiscardStateAppsHistory() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let none = try await f.run(["pending", app])
            #expect(none.status == 0)
            #expect(none.stdout == "nothing pending for \(app)\n")

            _ = try await f.run(["open", "bestrecipes://recipe/12"])
            let pending = try await f.run(["pending", app])
            #expect(pending.stdout.contains("route:      recipe(id=12)"))
            #expect(pending.stdout.contains("source:     url"))

            let state = try await f.run(["state", app])
            #expect(state.stdout == "not-running\n")
            let stateJSON = try await f.run(["state", app, "--json"])
            #expect(try DaemonFixture.json(stateJSON.stdout)["state"] as? String == "not-running")

            let apps = try await f.run(["apps"])
            #expect(apps.lines.contains { $0.hasPrefix("com.bestrecipes.App") && $0.hasSuffix("not-running") })
            #expect(apps.lines.contains { $0.hasPrefix("com.example.Apartments") })
            let appsJSON = try await f.run(["apps", "--json"])
            let rows = try #require(JSONSerialization.jsonObject(with: Data(appsJSON.stdout.utf8)) as? [[String: Any]])
            #expect(rows.map { $0["app_id"] as? String } == ["com.bestrecipes.App", "com.example.Apartments"])
            // Each app's claimed domains with their verdicts, never checked here.
            let domains = try #require(rows.first?["domains"] as? [[String: Any]])
            #expect(domains.map { $0["domain"] as? String } == ["bestrecipes.com", "*.bestrecipes.com"])
            #expect(domains.allSatisfy { $0["verdict"] as? String == "unchecked" && $0["checked_at_usec"] as? Int == 0 })

            let discard = try await f.run(["discard", app])
            #expect(discard.stdout == "discarded the pending deeplink of \(app)\n")
            let again = try await f.run(["discard", app, "--json"])
            #expect(try DaemonFixture.json(again.stdout)["discarded"] as? Bool == false)

            let history = try await f.run(["history", app])
            #expect(history.status == 0)
            #expect(history.lines.count == 1)
            #expect(history.lines[0].contains("discarded"))
            #expect(history.lines[0].contains("recipe"))
        }
    }

    @Test func monitorStreamsInvocationChanges() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let monitor = try f.spawn(["monitor", "--json"])
            defer { monitor.stop() }
            try await monitor.waitForErrorLine(containing: "monitoring")
            let opened = try await f.run(["open", "bestrecipes://recipe/1", "--json"])
            let id = try #require(try DaemonFixture.json(opened.stdout)["invocation_id"] as? String)
            let line = try await monitor.waitForLine(containing: id)
            let change = try DaemonFixture.json(line)
            #expect(change["app_id"] as? String == app)
            #expect(change["status"] as? String == "pending")

            _ = try await f.run(["discard", app])
            let discarded = try await monitor.waitForLine(containing: "discarded")
            #expect(discarded.contains(id))
        }
    }

    @Test func postNotificationGoesThroughTheNotificationServer() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let server = try f.connect()
            defer { server.close() }
            let notified = Recorder<[DBusValue]>()
            let notify = DBusMethod(
                "Notify",
                in: [.init("app_name", "s"), .init("replaces_id", "u"), .init("app_icon", "s"), .init("summary", "s"),
                     .init("body", "s"), .init("actions", "as"), .init("hints", "a{sv}"), .init("expire_timeout", "i")],
                out: [.init("id", "u")]
            ) { call in
                notified.put(call.arguments)
                call.reply([.uint32(42)])
            }
            let capabilities = DBusMethod("GetCapabilities", out: [.init("caps", "as")]) { $0.reply([.strings(["actions", "body"])]) }
            try server.export(DBusObject(
                path: "/org/freedesktop/Notifications",
                interfaces: [DBusInterface("org.freedesktop.Notifications", methods: [notify, capabilities])]))
            #expect(try await server.requestName("org.freedesktop.Notifications") == .primaryOwner)

            let result = try await f.run(["post-notification", app, "New recipe", "Try it", #"{"type": "recipe", "id": "7"}"#])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "notification 42\n")
            let arguments = try await notified.next()
            #expect(arguments[3].stringValue == "New recipe")
        }
    }
}
