import DBusKit
import Foundation
import Testing
import DeeplinkerTestSupport

/// `Launch`, `Invoke` with `platform_data`, `ResolveURL`, `ListApps`, history bounds and
/// de-duplication across a restart.
@Suite("Integration: invocation methods")
struct IntegrationInvocationMethodTests {
    let recipes = TestRouteFiles.recipes
    let apartments = TestRouteFiles.apartments

    @Test("Launch classifies its options and routes deep links, notifications and shortcuts")
    func launchKinds() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes, ["dedupe-window": "\"0\""])]) { f in
            let app = try await f.activeStandIn(recipes)
            // Each route is delivered before the next launch: one arriving while a delivery is in flight
            // would wait behind it and could be superseded by the one after (SPEC §6), not what this tests.
            func launch(_ options: String) async throws -> (kind: String, reply: DaemonFixture.RouteReply) {
                let v = try await f.call("Launch", [.string(recipes), .string(options)])
                let reply = DaemonFixture.RouteReply(v, offset: 1)
                if !reply.id.isEmpty { try await f.waitStatus(reply.id, "delivered") }
                return (v[0].stringValue ?? "", reply)
            }
            let link = try await launch(#"{"url": "bestrecipes://recipe/31", "source-application": "org.gnome.Nautilus"}"#)
            #expect(link.kind == "deep-link")
            #expect(link.reply.target == "recipe" && link.reply.parameters == ["id": "31"])
            let activity = try await launch(#"{"user-activity": {"webpage-url": "https://bestrecipes.com/search?q=pie"}}"#)
            #expect(activity.kind == "deep-link")
            #expect(activity.reply.target == "search" && activity.reply.parameters == ["q": "pie"])
            let note = try await launch(#"{"remote-notification": {"type": "recipe", "id": "32"}}"#)
            #expect(note.kind == "notification")
            #expect(note.reply.parameters == ["id": "32"])
            let shortcut = try await launch(#"{"shortcut-item": "com.bestrecipes.search"}"#)
            #expect(shortcut.kind == "shortcut")
            #expect(shortcut.reply.target == "search")
            let icon = try await launch("")
            #expect(icon.kind == "app-icon" && icon.reply.id.isEmpty && icon.reply.target.isEmpty)
            let unknown = try await launch(#"{"source-application": "org.gnome.Nautilus"}"#)
            #expect(unknown.kind == "unknown" && unknown.reply.id.isEmpty)
            let ids = [link, activity, note, shortcut].map(\.reply.id)
            #expect(app.received.all.map(\.invocationID) == ids)
            #expect(app.received.all.map(\.source) == ["url", "activity", "notification", "shortcut"])
            app.close()
        }
    }

    @Test("Launch of a not-running app with no route starts it (app-icon)")
    func launchFromIconStartsApp() async throws {
        try await DaemonFixture.withDaemon(startDaemon: false) { f in
            try f.writeRouteFile(recipes, try TestRouteFiles.shipped(recipes, ["launch": TestRouteFiles.array(f.pythonStandInArgv(recipes))]))
            let owners = Recorder<String>()
            try await f.client.onNameOwnerChanged(name: recipes) { _, _, new in owners.put(new) }
            try await f.startDaemon()
            let v = try await f.call("Launch", [.string(recipes), .string("{}")])
            #expect(v[0].stringValue == "app-icon")
            #expect(v[1].stringValue == "")
            _ = try await owners.first { !$0.isEmpty }
        }
    }

    @Test("Invoke passes the activation token, startup id and notification action to the app")
    func invokePlatformData() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)]) { f in
            let app = try await f.activeStandIn(recipes)
            let v = try await f.call("Invoke", [
                .string(recipes), .string("notification"), .string(#"{"type": "recipe", "id": "41"}"#),
                .variantDictionary([
                    "activation-token": .string("token-1"), "desktop-startup-id": .string("startup-1"),
                    "action": .string("open"), "unknown-key": .int32(3),
                ]),
            ])
            let reply = DaemonFixture.RouteReply(v)
            #expect(reply.target == "recipe" && reply.parameters == ["id": "41"])
            try await f.waitStatus(reply.id, "delivered")
            let got = try await app.received.first { $0.invocationID == reply.id }
            #expect(got.platformData["activation-token"]?.stringValue == "token-1")
            #expect(got.platformData["desktop-startup-id"]?.stringValue == "startup-1")
            #expect(got.platformData["deeplinker.action"]?.stringValue == "open")
            #expect(got.platformData["unknown-key"] == nil)
            #expect(got.source == "notification")
            let url = try await f.call("Invoke", [.string(""), .string("url"), .string("bestrecipes://home"), .variantDictionary([:])])
            #expect(DaemonFixture.RouteReply(url).target == "home")
            app.close()
        }
    }

    @Test("ResolveURL is a dry run; ListApps lists the configured apps")
    func resolveAndList() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [
            recipes: try TestRouteFiles.shipped(recipes), apartments: try TestRouteFiles.shipped(apartments),
        ]) { f in
            let v = try await f.call("ResolveURL", [.string(""), .string("https://www.bestrecipes.com/recipe/51?country=PT")])
            #expect(v[0].stringValue == recipes)
            #expect(v[1].stringValue == "recipe")
            #expect(v[2].stringDictionaryValue == ["id": "51", "country": "PT"])
            #expect(v[3].stringValue == "/recipe/:id")
            #expect(try await f.history().isEmpty)
            #expect(try await f.pending(recipes) == nil)
            #expect(f.changes.all.isEmpty)
            #expect(try await f.call("ListApps").first?.stringArray == [recipes, apartments].sorted())
        }
    }

    @Test("history keeps the newest rows up to its limit, newest first")
    func historyBounded() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)], startDaemon: false) { f in
            try await f.startDaemon(historyLimit: 5)
            var ids: [String] = []
            for i in 0..<12 { ids.append(try await f.openURL(recipes, "bestrecipes://recipe/\(i)").id) }
            let history = try await f.history()
            #expect(history.count <= 5 && history.count >= 1)
            #expect(history.first?.id == ids.last)
            #expect(history.map(\.id) == Array(ids.reversed().prefix(history.count)))
            #expect(try await f.history(recipes, limit: 2).map(\.id) == Array(ids.reversed().prefix(2)))
            #expect(try await f.pending(recipes)?.id == ids.last)
        }
    }

    @Test("de-duplication holds across a restart")
    func dedupeAcrossRestart() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes, ["dedupe-window": "\"60s\""])]) { f in
            let first = try await f.openURL(recipes, "bestrecipes://recipe/61")
            try await f.stopDaemon()
            try await f.startDaemon()
            let again = try await f.openURL(recipes, "bestrecipes://recipe/61")
            #expect(again == first)
            #expect(try await f.history().count == 1)
        }
    }
}
