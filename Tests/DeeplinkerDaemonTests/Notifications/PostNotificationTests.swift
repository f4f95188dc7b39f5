import DBusKit
import DeeplinkerTestSupport
import Foundation
import Testing

/// `PostNotification` against a real python3-dbusmock notification server (SPEC §3, Notifications).
@Suite("PostNotification with python3-dbusmock")
struct PostNotificationTests {
    static let mockInterface = "org.freedesktop.DBus.Mock"
    static let server = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    /// Starts `python3 -m dbusmock --session -t notification_daemon` on the fixture's bus.
    static func startMock(_ fixture: DaemonFixture) async throws -> TestProcess {
        let mock = try TestProcess(
            executable: "/usr/bin/python3", arguments: ["-m", "dbusmock", "--session", "-t", "notification_daemon"],
            environment: fixture.clientEnvironment())
        try await fixture.client.waitForOwner(server)
        return mock
    }

    static func emit(_ fixture: DaemonFixture, _ member: String, _ arguments: [DBusValue], signature: String) async throws {
        _ = try await fixture.client.call(
            destination: server, path: path, interface: mockInterface, member: "EmitSignal",
            arguments: [.string(server), .string(member), .signature(signature), .array(elementSignature: "v", arguments.map { .variant($0) })])
    }

    /// Posts a recipe notification for com.bestrecipes.App and returns the server's id.
    static func post(_ fixture: DaemonFixture, summary: String, body: String = "", recipe: String) async throws -> UInt32 {
        let reply = try await fixture.call("PostNotification", [
            .string("com.bestrecipes.App"), .string(summary), .string(body), .string(#"{"type": "recipe", "id": "\#(recipe)"}"#),
        ])
        return try #require(reply.first?.uint32Value)
    }

    @Test("posts through Notify, remembers the id, and a click routes the payload with the activation token")
    func postAndClick() async throws {
        try await DaemonFixture.withDaemon(shipped: ["com.bestrecipes.App"]) { fixture in
            let mock = try await Self.startMock(fixture)
            defer { mock.stop() }

            let id = try await Self.post(fixture, summary: "New recipe", body: "Try it", recipe: "7")

            let calls = try await fixture.client.call(destination: Self.server, path: Self.path, interface: Self.mockInterface, member: "GetCalls")
            let notify = try #require(calls.first?.arrayElements?.compactMap(\.structureFields).first { $0[1].stringValue == "Notify" })
            let arguments = try #require(notify[2].arrayElements)
            #expect(arguments[3].stringValue == "New recipe")
            #expect(arguments[4].stringValue == "Try it")
            #expect(arguments[5].stringArray?.contains("default") == true)
            #expect(arguments[6].variantDictionaryValue?["desktop-entry"]?.stringValue == "com.bestrecipes.App")

            let app = try await fixture.activeStandIn("com.bestrecipes.App")
            defer { app.close() }
            try await Self.emit(fixture, "ActivationToken", [.uint32(id), .string("token-42")], signature: "us")
            try await Self.emit(fixture, "ActionInvoked", [.uint32(id), .string("default")], signature: "us")
            let received = try await app.received.first { _ in true }
            #expect(received.target == "recipe")
            #expect(received.parameters == ["id": "7"])
            #expect(received.source == "notification")
            #expect(received.platformData["activation-token"]?.stringValue == "token-42")
            #expect(received.platformData["deeplinker.action"]?.stringValue == "default")
        }
    }

    @Test("a click the server sends right behind its Notify reply routes (the id is remembered before anything else runs)")
    func clickRightBehindTheReplyRoutes() async throws {
        try await DaemonFixture.withDaemon(shipped: ["com.bestrecipes.App"]) { fixture in
            let mock = try await Self.startMock(fixture)
            defer { mock.stop() }
            let app = try await fixture.activeStandIn("com.bestrecipes.App")
            defer { app.close() }
            // Notify answers 4242 and, in the server's next main-loop turn, clicks it: both messages
            // reach the daemon back to back.
            let code = """
                from gi.repository import GLib
                GLib.idle_add(lambda s=self: s.EmitSignal('org.freedesktop.Notifications', 'ActionInvoked', 'us', [4242, 'default']) and False)
                ret = 4242
                """
            _ = try await fixture.client.call(
                destination: Self.server, path: Self.path, interface: Self.mockInterface, member: "AddMethod",
                arguments: [.string(Self.server), .string("Notify"), .string("susssasa{sv}i"), .string("u"), .string(code)])
            #expect(try await Self.post(fixture, summary: "Quick", recipe: "5") == 4242)
            let received = try await app.received.first { _ in true }
            #expect(received.target == "recipe")
            #expect(received.parameters == ["id": "5"])
        }
    }

    @Test("NotificationClosed forgets the notification: a later click routes nothing")
    func closedIsForgotten() async throws {
        try await DaemonFixture.withDaemon(shipped: ["com.bestrecipes.App"]) { fixture in
            let mock = try await Self.startMock(fixture)
            defer { mock.stop() }
            let id = try await Self.post(fixture, summary: "Gone", recipe: "8")
            let app = try await fixture.activeStandIn("com.bestrecipes.App")
            defer { app.close() }
            try await Self.emit(fixture, "NotificationClosed", [.uint32(id), .uint32(2)], signature: "uu")
            try await Self.emit(fixture, "ActionInvoked", [.uint32(id), .string("default")], signature: "us")
            // A later invocation is delivered; had the click routed, its delivery would have come first.
            let barrier = try await fixture.barrier(app, url: "bestrecipes://home")
            let first = try await app.received.first { _ in true }
            #expect(first.invocationID == barrier)
        }
    }

    @Test("a notification posted before a restart still routes its click after it")
    func postedNotificationSurvivesARestart() async throws {
        try await DaemonFixture.withDaemon(shipped: ["com.bestrecipes.App"]) { fixture in
            let mock = try await Self.startMock(fixture)
            defer { mock.stop() }
            let id = try await Self.post(fixture, summary: "Later", recipe: "9")
            try await fixture.stopDaemon()
            try await fixture.startDaemon()
            let app = try await fixture.activeStandIn("com.bestrecipes.App")
            defer { app.close() }
            try await Self.emit(fixture, "ActionInvoked", [.uint32(id), .string("default")], signature: "us")
            let received = try await app.received.first { _ in true }
            #expect(received.target == "recipe")
            #expect(received.parameters == ["id": "9"])
        }
    }

    @Test("bad posts are refused with named errors and nothing is shown")
    func refusals() async throws {
        try await DaemonFixture.withDaemon(shipped: ["com.bestrecipes.App"]) { fixture in
            let unknown = try await fixture.failingCall("PostNotification", [.string("com.nobody.App"), .string("s"), .string("b"), .string("{}")])
            #expect(unknown.name == "org.deeplinker.Error.UnknownApp")
            #expect(unknown.message.contains("com.nobody.App"))
            let payload = try await fixture.failingCall("PostNotification", [.string("com.bestrecipes.App"), .string("s"), .string("b"), .string("[1]")])
            #expect(payload.name == "org.deeplinker.Error.InvalidPayload")
        }
    }
}
