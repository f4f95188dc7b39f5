import DBusKit
import DeeplinkerCore
import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// The D-Bus surface: errors of SPEC §4, de-duplication, introspection, the single-daemon rule and
/// what `InvocationChanged` may carry.
@Suite("Integration: API")
struct IntegrationAPITests {
    let recipes = TestRouteFiles.recipes
    let apartments = TestRouteFiles.apartments

    struct Refusal: Sendable, CustomStringConvertible {
        let method: String
        let arguments: [DBusValue]
        let error: String
        /// What the message must name.
        let names: String

        var description: String { "\(method) → \(error)" }
    }

    @Test("every §4 error is reachable with a message naming the value; the daemon keeps serving, data intact")
    func everyErrorNamed() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [
            recipes: try TestRouteFiles.shipped(recipes),
            apartments: try TestRouteFiles.shipped(apartments),
            "org.example.One": TestRouteFiles.minimal(scheme: "shared"),
            "org.example.Two": TestRouteFiles.minimal(scheme: "shared"),
        ]) { f in
            // Data stored before the bad calls.
            let delivered = try await f.activeStandIn(apartments)
            let before = try await f.openURL(apartments, "deeplinkTutorial://request/r-1")
            try await f.waitStatus(before.id, "delivered")
            let pending = try await f.openURL(recipes, "bestrecipes://recipe/100")
            let historyBefore = try await f.history()
            let outsider = try DBusConnection(address: f.bus.address)

            let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
            let manyQuery = "bestrecipes://search?" + (0..<70).map { "k\($0)=v" }.joined(separator: "&")
            let hugeString = String(repeating: "x", count: 70 * 1024)
            let longURL = "bestrecipes://search?q=" + String(repeating: "y", count: 9 * 1024)
            let refusals: [Refusal] = [
                Refusal(method: "OpenURL", arguments: [.string("com.nope.App"), .string("bestrecipes://home")], error: "UnknownApp", names: "com.nope.App"),
                Refusal(method: "GetPending", arguments: [.string("com.nope.Pending")], error: "UnknownApp", names: "com.nope.Pending"),
                Refusal(method: "GetHistory", arguments: [.string("com.nope.History"), .uint32(0)], error: "UnknownApp", names: "com.nope.History"),
                Refusal(method: "OpenURL", arguments: [.string(""), .string("nobody://x")], error: "NoApp", names: "nobody://x"),
                Refusal(method: "OpenURL", arguments: [.string(""), .string("shared://home")], error: "AmbiguousApp", names: "shared://home"),
                Refusal(method: "OpenURL", arguments: [.string(recipes), .string("bestrecipes://user@recipe/1")], error: "InvalidURL", names: "bestrecipes://user@recipe/1"),
                Refusal(method: "OpenURL", arguments: [.string(recipes), .string("bestrecipes://recipe/%2e%2e/1")], error: "InvalidURL", names: "%2e%2e"),
                Refusal(method: "OpenURL", arguments: [.string(recipes), .string("bestrecipes:recipe/1")], error: "InvalidURL", names: "bestrecipes:recipe/1"),
                Refusal(method: "OpenURL", arguments: [.string(recipes), .string("bestrecipes://recipe/1%0A")], error: "InvalidURL", names: "recipe/1"),
                Refusal(method: "OpenURL", arguments: [.string(recipes), .string("bestrecipes://admin/users")], error: "NoRoute", names: "admin/users"),
                Refusal(method: "OpenURL", arguments: [.string(recipes), .string("bestrecipes://nothing/here")], error: "NoRoute", names: "nothing/here"),
                Refusal(method: "OpenURL", arguments: [.string(recipes), .string("bestrecipes://recipe/abc")], error: "InvalidParameter", names: "abc"),
                Refusal(method: "ActivateNotification", arguments: [.string(recipes), .string("{not json"), .string("default")], error: "InvalidPayload", names: "payload"),
                Refusal(method: "ActivateNotification", arguments: [.string(recipes), .string("[1, 2]"), .string("default")], error: "InvalidPayload", names: "payload"),
                Refusal(method: "ActivateNotification", arguments: [.string(recipes), .string(#"{"type": "recipe", "id": "\ud800"}"#), .string("default")], error: "InvalidPayload", names: "payload"),
                Refusal(method: "ActivateNotification", arguments: [.string(recipes), .string(deep), .string("default")], error: "TooLarge", names: "32"),
                Refusal(method: "Launch", arguments: [.string(recipes), .string(#"{"url": 5}"#)], error: "InvalidPayload", names: "url"),
                Refusal(method: "Launch", arguments: [.string(recipes), .string(#"{"remote-notification": "text"}"#)], error: "InvalidPayload", names: "remote-notification"),
                Refusal(method: "Launch", arguments: [.string(recipes), .string("[]")], error: "InvalidPayload", names: "object"),
                Refusal(method: "PerformShortcut", arguments: [.string(recipes), .string("com.nope.shortcut")], error: "UnknownShortcut", names: "com.nope.shortcut"),
                Refusal(method: "ContinueActivity", arguments: [.string(recipes), .string("handoff-thing"), .string("https://bestrecipes.com/")], error: "Unsupported", names: "handoff-thing"),
                Refusal(method: "OpenURL", arguments: [.string(recipes), .string(longURL)], error: "TooLarge", names: "8192"),
                Refusal(method: "OpenURL", arguments: [.string(recipes), .string(hugeString)], error: "TooLarge", names: "url"),
                Refusal(method: "OpenURL", arguments: [.string(recipes), .string(manyQuery)], error: "TooLarge", names: "64"),
                Refusal(method: "PerformShortcut", arguments: [.string(hugeString), .string("x")], error: "TooLarge", names: "app_id"),
                Refusal(
                    method: "Invoke",
                    arguments: [.string(recipes), .string("url"), .string("bestrecipes://home"), .variantDictionary(["activation-token": .int32(5)])],
                    error: "InvalidParameter", names: "platform_data.activation-token"),
                Refusal(
                    method: "Invoke",
                    arguments: [.string(recipes), .string("carrier-pigeon"), .string("bestrecipes://home"), .variantDictionary([:])],
                    error: "Unsupported", names: "carrier-pigeon"),
                Refusal(method: "SetAppState", arguments: [.string(recipes), .string("sleeping")], error: "InvalidParameter", names: "sleeping"),
            ]
            for refusal in refusals {
                let error = try await f.failingCall(refusal.method, refusal.arguments, from: outsider)
                #expect(error.name == "org.deeplinker.Error." + refusal.error, "\(refusal)")
                #expect(error.message.contains(refusal.names), "\(refusal): \(error.message)")
            }
            // AccessDenied, ShortcutUnavailable and InvalidConfig need some set-up.
            let denied = try await f.failingCall("SetAppState", [.string(recipes), .string("active")], from: outsider)
            #expect(denied.name == "org.deeplinker.Error.AccessDenied")
            #expect(denied.message.contains(outsider.uniqueName) && denied.message.contains(recipes))
            // An installed desktop entry gets the published shortcuts as its actions (SPEC §8).
            let applications = f.dataHome + "/applications"
            try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
            let entryPath = applications + "/\(recipes).desktop"
            let recipesConfig = try RouteFileParser.parse(try TestRouteFiles.shipped(recipes), appID: recipes, file: "\(recipes).toml")
            try DesktopEntry.render(config: recipesConfig).write(toFile: entryPath, atomically: true, encoding: .utf8)
            try await f.call("SetShortcuts", [.string(recipes), .strings(["com.bestrecipes.favorites"])])
            let entry = try TestFiles.read(entryPath)
            #expect(entry.contains("Actions=com-bestrecipes-favorites;\n"))
            #expect(!entry.contains("com-bestrecipes-search"))
            let unavailable = try await f.failingCall("PerformShortcut", [.string(recipes), .string("com.bestrecipes.search")])
            #expect(unavailable.name == "org.deeplinker.Error.ShortcutUnavailable")
            #expect(unavailable.message.contains("com.bestrecipes.search"))
            let bogus = try await f.failingCall("SetShortcuts", [.string(recipes), .strings(["com.nope.other"])])
            #expect(bogus.name == "org.deeplinker.Error.UnknownShortcut")
            try f.writeRouteFile(apartments, "name = \"Broken\"\nschemes = [\"deeplinkTutorial\"\n")
            let config = try await f.failingCall("Reload", [])
            #expect(config.name == "org.deeplinker.Error.InvalidConfig")
            #expect(config.message.contains("\(apartments).toml"))
            // A wrong signature is the bus binding's InvalidArgs.
            let signature = try await f.failingCall("OpenURL", [.string(recipes)])
            #expect(signature.name == "org.freedesktop.DBus.Error.InvalidArgs")

            // Still serving, nothing lost: the broken file kept its previous routes.
            #expect(try await f.call("ListApps").first?.stringArray?.contains(apartments) == true)
            let stillRouted = try await f.openURL(apartments, "deeplinkTutorial://messages/2")
            #expect(stillRouted.target == "messages.details")
            try await f.waitStatus(stillRouted.id, "delivered")
            #expect(try await f.pending(recipes)?.id == pending.id)
            let historyAfter = try await f.history()
            for row in historyBefore {
                #expect(historyAfter.contains(row), "history row \(row.id) changed or vanished")
            }
            // Refusals for configured apps are recorded as rejected with the error name, never with a route.
            let rejected = historyAfter.filter { $0.status == "rejected" }
            #expect(!rejected.isEmpty)
            #expect(rejected.allSatisfy { $0.target.isEmpty && $0.appID == recipes })
            #expect(f.changes.all.contains { $0.status == "rejected" && $0.detail == "org.deeplinker.Error.NoRoute" })
            #expect(!historyAfter.contains { $0.appID == "com.nope.App" })
            outsider.close()
            delivered.close()
        }
    }

    @Test("refusals before routing are recorded too: an oversized argument, a bad platform_data value, Invoke without app id")
    func refusalsBeforeRoutingAreRecorded() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)]) { f in
            let huge = "https://bestrecipes.com/recipe?id=" + String(repeating: "1", count: 70_000)
            let tooLarge = try await f.failingCall("OpenURL", [.string(recipes), .string(huge)])
            #expect(tooLarge.name == "org.deeplinker.Error.TooLarge")
            let badData = try await f.failingCall("Invoke", [
                .string(recipes), .string("url"), .string("bestrecipes://home"), .variantDictionary(["activation-token": .int32(7)]),
            ])
            #expect(badData.name == "org.deeplinker.Error.InvalidParameter")
            let unrouted = try await f.failingCall("Invoke", [
                .string(""), .string("url"), .string("https://bestrecipes.com/admin/x"), .variantDictionary([:]),
            ])
            #expect(unrouted.name == "org.deeplinker.Error.NoRoute")
            // Elements of string arrays are held to the same limit.
            let bigType = try await f.failingCall("SetShortcuts", [.string(recipes), .strings([String(repeating: "t", count: 70_000)])])
            #expect(bigType.name == "org.deeplinker.Error.TooLarge")
            #expect(bigType.message.contains("an element of argument 'shortcut_types'") && bigType.message.count < 500)
            // An oversized app id or an unknown app leaves no trace.
            _ = try await f.failingCall("OpenURL", [.string(String(repeating: "a", count: 70_000)), .string("bestrecipes://home")])
            _ = try await f.failingCall("OpenURL", [.string("com.nobody.App"), .string(huge)])

            let rows = try await f.history()
            #expect(rows.count == 3)
            #expect(rows.allSatisfy { $0.appID == recipes && $0.status == "rejected" && $0.target.isEmpty })
            #expect(Set(rows.map(\.source)) == ["universal-link", "url"])
            for error in ["TooLarge", "InvalidParameter", "NoRoute"] {
                _ = try await f.changes.first { $0.status == "rejected" && $0.detail == "org.deeplinker.Error." + error }
            }
        }
    }

    @Test("a change's InvocationChanged reaches a watching client before the reply of the call that made it")
    func signalsBeforeReply() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes, ["dedupe-window": "\"0\""])]) { f in
            var previous: String?
            for index in 0..<50 {
                let reply = try await f.openURL(recipes, "bestrecipes://recipe/\(index)")
                #expect(f.statuses(reply.id) == ["pending"], "call \(index)")
                if let previous { #expect(f.statuses(previous) == ["pending", "superseded"], "call \(index)") }
                previous = reply.id
            }
        }
    }

    @Test("an identical invocation within dedupe-window returns the first id and creates nothing")
    func deduplication() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes, ["dedupe-window": "\"60s\""])]) { f in
            let first = try await f.openURL(recipes, "bestrecipes://recipe/21")
            let count = try await f.history().count
            let again = try await f.openURL(recipes, "bestrecipes://recipe/21")
            #expect(again == first)
            #expect(try await f.history().count == count)
            let other = try await f.openURL(recipes, "bestrecipes://recipe/22")
            #expect(other.id != first.id)
            // Notifications: the same value at id-key is the same invocation, whatever the rest says.
            let n1 = try await f.activateNotification(recipes, #"{"type": "recipe", "id": "1", "notification-id": "abc"}"#)
            let n2 = try await f.activateNotification(recipes, #"{"notification-id": "abc", "type": "recipe", "id": "1"}"#)
            #expect(n1 == n2)
            #expect(try await f.history().count == count + 2)
            // Even once delivered, a repeat is answered with the first id and not delivered again.
            let app = try await f.activeStandIn(recipes)
            try await f.waitStatus(n1.id, "delivered")
            let repeated = try await f.activateNotification(recipes, #"{"type": "recipe", "id": "1", "notification-id": "abc"}"#)
            #expect(repeated.id == n1.id)
            let barrier = try await f.barrier(app, url: "bestrecipes://home")
            #expect(app.received.all.map(\.invocationID) == [n1.id, barrier])
            #expect(f.statuses(first.id) == ["pending", "superseded"])
            app.close()
        }
    }

    @Test("Introspect equals Config/org.deeplinker.Deeplinker1.xml byte for byte; Version is served")
    func introspection() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)]) { f in
            let xml = try await f.client.call(
                destination: DaemonFixture.busName, path: DaemonFixture.objectPath,
                interface: "org.freedesktop.DBus.Introspectable", member: "Introspect")
            let shipped = try Data(contentsOf: TestFiles.repositoryRoot.appendingPathComponent("Config/org.deeplinker.Deeplinker1.xml"))
            #expect(Data((xml.first?.stringValue ?? "").utf8) == shipped)
            let version = try await f.client.call(
                destination: DaemonFixture.busName, path: DaemonFixture.objectPath,
                interface: "org.freedesktop.DBus.Properties", member: "Get",
                arguments: [.string(DaemonFixture.interface), .string("Version")])
            #expect(version.first?.stringValue == DeeplinkerAPI.version)
            let all = try await f.client.call(
                destination: DaemonFixture.busName, path: DaemonFixture.objectPath,
                interface: "org.freedesktop.DBus.Properties", member: "GetAll", arguments: [.string(DaemonFixture.interface)])
            #expect(all.first?.variantDictionaryValue?["Version"]?.stringValue == DeeplinkerAPI.version)
        }
    }

    @Test("a second daemon on the same bus is refused with nameTaken; the first keeps serving")
    func secondDaemonRefused() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)]) { f in
            var configuration = f.configuration
            configuration.stateDirectory = f.root + "/state2"
            do {
                _ = try await buildDaemon(configuration, logger: DaemonFixture.logger)
                Issue.record("a second daemon started")
            } catch let error as DaemonError {
                guard case .nameTaken(let name, let owner) = error else { throw error }
                #expect(name == DaemonFixture.busName)
                #expect(owner == f.daemonUniqueName)
            }
            #expect(try await f.client.nameOwner(DaemonFixture.busName) == f.daemonUniqueName)
            #expect(try await f.openURL(recipes, "bestrecipes://home").target == "home")
        }
    }

    @Test("InvocationChanged never carries parameter values")
    func invocationChangedCarriesNoParameters() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes, ["max-attempts": "1"])]) { f in
            let app = try await f.standIn(recipes, answer: .refuse("org.example.Error.Busy"))
            let a = try await f.openURL(recipes, "bestrecipes://search?q=SECRETsoup")
            let b = try await f.openURL(recipes, "bestrecipes://recipe/987654321?country=SECRETland")
            _ = try? await f.failingCall("OpenURL", [.string(recipes), .string("bestrecipes://recipe/SECRETbad")])
            let n = try await f.activateNotification(recipes, #"{"type": "search", "q": "SECRETnote"}"#)
            try app.becomeActive()
            try await f.waitStatus(n.id, "failed")
            app.setAnswer(.acknowledge)
            let c = try await f.openURL(recipes, "bestrecipes://search?q=SECRETfinal", from: app.connection)
            try await f.waitStatus(c.id, "delivered")
            try app.emit("WillResignActive")
            #expect(try await app.stateSeenByDaemon() == "inactive")
            let d = try await f.openURL(recipes, "bestrecipes://search?q=SECRETdiscard")
            #expect(try await f.call("DiscardPending", [.string(recipes)]).first?.boolValue == true)
            try await f.waitStatus(d.id, "discarded")
            try await f.waitStatus(a.id, "superseded")
            try await f.waitStatus(b.id, "superseded")
            let all = f.changes.all
            #expect(all.contains { $0.status == "rejected" })
            for change in all {
                let text = change.status + change.detail + change.appID + change.invocationID
                #expect(!text.contains("SECRET") && !text.contains("987654321"), "\(change)")
            }
            app.close()
        }
    }
}
