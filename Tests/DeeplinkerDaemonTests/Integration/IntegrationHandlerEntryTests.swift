import DBusKit
import DeeplinkerProtocol
import DeeplinkerTestSupport
import Foundation
import Testing

/// The scheme handler entries on the bus (SPEC §8): the daemon owns `<app-id>.deeplinker` for
/// every configured app with a scheme and answers `org.freedesktop.Application` there as `Invoke`.
@Suite("Handler entries on the bus")
struct IntegrationHandlerEntryTests {
    static let recipes = TestRouteFiles.recipes
    static let notes = "org.example.Notes"
    static let handler = DeeplinkerBus.handlerName(forAppID: recipes)

    func callHandler(_ f: DaemonFixture, _ member: String, _ arguments: [DBusValue], name: String = handler) async throws -> [DBusValue] {
        try await f.client.call(
            destination: name, path: DeeplinkerBus.objectPath(forAppID: name), interface: DeeplinkerBus.applicationInterface,
            member: member, arguments: arguments)
    }

    @Test("Open on the handler entry is Invoke: the route reaches the active app with the launcher's token")
    func openDeliversTheRouteWithTheToken() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.recipes: try TestRouteFiles.shipped(Self.recipes)]) { f in
            #expect(DeeplinkerBus.objectPath(forAppID: Self.handler) == "/com/bestrecipes/App/deeplinker")
            let app = try await StandInApp(Self.recipes, busAddress: f.bus.address)
            defer { app.close() }
            try app.becomeActive()
            #expect(try await app.stateSeenByDaemon() == "active")
            let data: DBusValue = .variantDictionary([
                "desktop-startup-id": .string("launcher-7_TIME0"), "activation-token": .string("token-7"), "x-unknown": .int32(1),
            ])
            let reply = try await callHandler(f, "Open", [.strings(["bestrecipes://recipe/12?country=FR"]), data])
            #expect(reply.isEmpty)
            let received = try await app.received.next()
            #expect(received.target == "recipe")
            #expect(received.parameters == ["id": "12", "country": "FR"])
            #expect(received.source == "url")
            #expect(received.platformData["activation-token"]?.stringValue == "token-7")
            #expect(received.platformData["desktop-startup-id"]?.stringValue == "launcher-7_TIME0")
            #expect(received.platformData["deeplinker.url"]?.stringValue == "bestrecipes://recipe/12?country=FR")
            // Stored like any invocation (the reply came after the commit).
            let history = try await f.call("GetHistory", [.string(Self.recipes), .uint32(0)])
            #expect(history.first?.arrayElements?.count == 1)

            // Several URIs: each is an invocation; Activate is an icon launch (no route).
            _ = try await callHandler(f, "Open", [.strings(["bestrecipes://recipe/1", "bestrecipes://recipe/2"]), .variantDictionary([:])])
            #expect(try await app.received.next().parameters == ["id": "1"])
            #expect(try await app.received.next().parameters == ["id": "2"])
            #expect(try await callHandler(f, "Activate", [.variantDictionary([:])]).isEmpty)
            let all = try await f.call("GetHistory", [.string(Self.recipes), .uint32(0)])
            #expect(all.first?.arrayElements?.count == 3)
        }
    }

    @Test("Refusals are Invoke's: NoRoute recorded as rejected, a bad token type named; ActivateAction is Unsupported")
    func refusals() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.recipes: try TestRouteFiles.shipped(Self.recipes)]) { f in
            let noRoute = await #expect(throws: DBusError.self) {
                _ = try await callHandler(f, "Open", [.strings(["bestrecipes://nowhere/1"]), .variantDictionary([:])])
            }
            #expect(noRoute?.name == "org.deeplinker.Error.NoRoute")
            let history = try await f.call("GetHistory", [.string(Self.recipes), .uint32(0)])
            #expect(history.first?.arrayElements?.first?.structureFields?[4] == .string("rejected"))

            let badToken = await #expect(throws: DBusError.self) {
                _ = try await callHandler(f, "Open", [.strings(["bestrecipes://recipe/1"]), .variantDictionary(["activation-token": .int32(3)])])
            }
            #expect(badToken?.name == "org.deeplinker.Error.InvalidParameter")
            #expect(badToken?.message.contains("platform_data.activation-token") == true)

            let action = await #expect(throws: DBusError.self) {
                _ = try await callHandler(f, "ActivateAction", [.string("recipe"), .array(elementSignature: "v", []), .variantDictionary([:])])
            }
            #expect(action?.name == "org.deeplinker.Error.Unsupported")
            #expect(action?.message.contains(Self.handler) == true)
        }
    }

    @Test("The daemon owns one handler name per app with a scheme, and takes and lets go of them on reload")
    func namesFollowTheRouteFiles() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.recipes: try TestRouteFiles.shipped(Self.recipes)]) { f in
            let daemon = try #require(f.daemonUniqueName)
            #expect(try await f.client.nameOwner(Self.handler) == daemon)
            let notesHandler = DeeplinkerBus.handlerName(forAppID: Self.notes)
            #expect(try await f.client.nameOwner(notesHandler) == nil)

            try f.writeRouteFile(Self.notes, TestRouteFiles.minimal(scheme: "notes"))
            _ = try await f.call("Reload")
            #expect(try await f.client.nameOwner(notesHandler) == daemon)
            _ = try await callHandler(f, "Open", [.strings(["notes://home"]), .variantDictionary([:])], name: notesHandler)

            try FileManager.default.removeItem(atPath: "\(f.configDir)/\(Self.recipes).toml")
            _ = try await f.call("Reload")
            #expect(try await f.call("ListApps") == [.strings([Self.notes])])
            #expect(try await f.client.nameOwner(Self.handler) == nil)
            #expect(try await f.client.nameOwner(notesHandler) == daemon)
        }
    }
}
