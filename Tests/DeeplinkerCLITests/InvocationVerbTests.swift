import DBusKit
import DeeplinkerClient
import DeeplinkerTestSupport
import Foundation
import Testing

/// The invocation verbs against the real daemon: human output, `--json`, and what is stored.
@Suite struct InvocationVerbTests {
    let app = "com.bestrecipes.App"

    @Test func openPrintsTheRouteAndStoresItPending() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let human = try await f.run(["open", "bestrecipes://recipe/12"])
            #expect(human.status == 0, "\(human.stderr)")
            #expect(human.stdout.contains("route:      recipe(id=12)"))
            #expect(human.stdout.contains("app:        (none)") == false)

            let json = try await f.run(["open", "--app", app, "https://bestrecipes.com/recipe?country=FR&limit=07", "--json"])
            #expect(json.status == 0, "\(json.stderr)")
            let reply = try DaemonFixture.json(json.stdout)
            #expect(reply["target"] as? String == "recipe")
            #expect(reply["parameters"] as? [String: String] == ["country": "FR", "limit": "7"])
            let id = try #require(reply["invocation_id"] as? String)

            let pending = try await f.run(["pending", app, "--json"])
            let body = try DaemonFixture.json(pending.stdout)
            #expect(body["present"] as? Bool == true)
            let route = try #require(body["pending"] as? [String: Any])
            #expect(route["invocation_id"] as? String == id)
            #expect(route["source"] as? String == "universal-link")
        }
    }

    @Test func notifyShortcutLaunchAndActivity() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let notify = try await f.run(["notify", app, #"{"type": "recipe", "id": "7"}"#, "--json"])
            #expect(notify.status == 0, "\(notify.stderr)")
            #expect(try DaemonFixture.json(notify.stdout)["parameters"] as? [String: String] == ["id": "7"])

            let apartments = try await f.run(["notify", "com.example.Apartments", #"{"data": {"messageId": "1"}}"#, "--action", "reply", "--json"])
            #expect(apartments.status == 0, "\(apartments.stderr)")
            #expect(try DaemonFixture.json(apartments.stdout)["target"] as? String == "messages.details")

            let shortcut = try await f.run(["shortcut", app, "com.bestrecipes.favorites", "--json"])
            #expect(shortcut.status == 0, "\(shortcut.stderr)")
            let s = try DaemonFixture.json(shortcut.stdout)
            #expect(s["target"] as? String == "home")
            #expect(s["parameters"] as? [String: String] == ["tab": "favorites"])

            let launchURL = try await f.run(["launch", app, "bestrecipes://search?q=soup", "--json"])
            #expect(launchURL.status == 0, "\(launchURL.stderr)")
            let l = try DaemonFixture.json(launchURL.stdout)
            #expect(l["kind"] as? String == "deep-link")
            #expect(l["target"] as? String == "search")

            let launchOptions = try await f.run(["launch", app, "--options", #"{"shortcut-item": "com.bestrecipes.search"}"#])
            #expect(launchOptions.status == 0, "\(launchOptions.stderr)")
            #expect(launchOptions.stdout.contains("kind:       shortcut"))
            #expect(launchOptions.stdout.contains("route:      search()"))

            let icon = try await f.run(["launch", app, "--json"])
            #expect(icon.status == 0, "\(icon.stderr)")
            let i = try DaemonFixture.json(icon.stdout)
            #expect(i["kind"] as? String == "app-icon")
            #expect(i["invocation_id"] as? String == "")

            let activity = try await f.run(["activity", app, "https://www.bestrecipes.com/recipe/3", "--json"])
            #expect(activity.status == 0, "\(activity.stderr)")
            #expect(try DaemonFixture.json(activity.stdout)["parameters"] as? [String: String] == ["id": "3"])

            let history = try await f.run(["history", "--limit", "0", "--json"])
            let rows = try #require(JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])
            let sources = Set(rows.compactMap { $0["source"] as? String })
            #expect(sources.isSuperset(of: ["notification", "shortcut", "url", "activity"]))
        }
    }

    @Test func platformDataComesFromTheEnvironment() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let sim = try f.spawn(["simulate-app", app, "--active"])
            defer { sim.stop() }
            try await sim.waitForLine(containing: "state active")
            let result = try await f.run(
                ["open", "bestrecipes://recipe/5"],
                environment: ["XDG_ACTIVATION_TOKEN": "token-123", "DESKTOP_STARTUP_ID": "startup-9"])
            #expect(result.status == 0, "\(result.stderr)")
            let line = try await sim.waitForLine(containing: "route recipe(id=5)")
            #expect(line.contains("activation-token=token-123"))
            #expect(line.contains("desktop-startup-id=startup-9"))
            #expect(line.contains("url=bestrecipes://recipe/5"))
        }
    }
}
