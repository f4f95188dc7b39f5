import DBusKit
import DeeplinkerTestSupport
import DeeplinkerClient
import Foundation
import Testing

/// `DeeplinkerApp` against the real daemon: routes once, redeliveries ignored, refusals kept
/// pending, lifecycle signals, and re-announcing after a daemon restart.
@Suite struct ClientLibraryTests {
    let app = "com.bestrecipes.App"

    @Test func routesArriveOnceThroughTheHandler() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let routes = Recorder<IncomingRoute>()
            let client = try DeeplinkerApp(appID: app, busAddress: f.bus.address)
            try await client.start { routes.put($0) }
            let proxy = try f.proxy()
            defer { proxy.connection.close() }
            let reply = try await proxy.openURL(appID: "", url: "bestrecipes://recipe/12")
            client.becameActive()
            let route = try await routes.next()
            #expect(route.target == "recipe")
            #expect(route.parameters == ["id": "12"])
            #expect(route.invocationID == reply.invocationID)
            #expect(route.source == "url")
            #expect(route.url == "bestrecipes://recipe/12")
            #expect(route.receivedAtMicroseconds != nil)

            // A second BecameActive delivers nothing; the next route is the next invocation.
            client.willResignActive()
            client.becameActive()
            let next = try await proxy.performShortcut(appID: app, type: "com.bestrecipes.search")
            #expect(try await routes.next().invocationID == next.invocationID)
            await client.stop()
        }
    }

    @Test func redeliveredInvocationIDIsAcknowledgedButIgnored() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { f in
            let routes = Recorder<IncomingRoute>()
            let client = try DeeplinkerApp(appID: app, busAddress: f.bus.address)
            try await client.start { routes.put($0) }
            let caller = try f.connect()
            defer { caller.close() }
            func deliver(_ id: String, redelivery: Bool) async throws {
                _ = try await caller.call(
                    destination: app, path: client.objectPath, interface: "org.freedesktop.Application", member: "ActivateAction",
                    arguments: [
                        .string("recipe"), .array(elementSignature: "v", [.variant(.stringDictionary(["id": "1"]))]),
                        .variantDictionary([
                            "deeplinker.invocation-id": .string(id), "deeplinker.source": .string("url"),
                            "deeplinker.redelivery": .boolean(redelivery),
                        ]),
                    ])
            }
            try await deliver("inv-1", redelivery: false)
            try await deliver("inv-1", redelivery: true)
            try await deliver("inv-2", redelivery: false)
            #expect(try await routes.next().invocationID == "inv-1")
            #expect(try await routes.next().invocationID == "inv-2")
            #expect(await client.hasHandled(invocationID: "inv-1"))
            await client.stop()
        }
    }

    @Test func aThrowingHandlerKeepsTheRoutePending() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let attempts = Recorder<IncomingRoute>()
            let refusals = Locked(0)
            let client = try DeeplinkerApp(appID: app, busAddress: f.bus.address)
            struct NotReady: Error {}
            try await client.start { route in
                attempts.put(route)
                if refusals.increment() == 1 { throw NotReady() }
            }
            let proxy = try f.proxy()
            defer { proxy.connection.close() }
            let changes = Recorder<InvocationChange>()
            try await proxy.onInvocationChanged { changes.put($0) }
            let reply = try await proxy.openURL(appID: app, url: "bestrecipes://recipe/8")
            let id = reply.invocationID
            _ = try await changes.next(where: { $0.invocationID == id && $0.status == "pending" })
            client.becameActive()
            #expect(try await attempts.next().invocationID == id)
            _ = try await changes.next(where: { $0.invocationID == id && $0.status == "delivering" })
            _ = try await changes.next(where: { $0.invocationID == id && $0.status == "pending" })
            #expect(try await proxy.pending(appID: app)?.invocationID == id)
            #expect(await client.hasHandled(invocationID: id) == false)

            client.becameActive()
            #expect(try await attempts.next().invocationID == id)
            _ = try await changes.next(where: { $0.invocationID == id && $0.status == "delivered" })
            #expect(await client.hasHandled(invocationID: id))
            await client.stop()
        }
    }

    @Test func lifecycleSignalsAreEmittedOnTheObjectPath() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { f in
            let listener = try f.connect()
            defer { listener.close() }
            let seen = Recorder<String>()
            try await listener.subscribe(MatchRule(interface: "org.deeplinker.Lifecycle1", path: "/com/bestrecipes/App")) { message, _ in
                seen.put(message.member ?? "")
            }
            let client = try DeeplinkerApp(appID: app, busAddress: f.bus.address)
            try await client.start { _ in }
            client.becameActive()
            client.willResignActive()
            client.didEnterBackground()
            client.willEnterForeground()
            var members: [String] = []
            for _ in 0..<4 { members.append(try await seen.next()) }
            #expect(members == ["BecameActive", "WillResignActive", "DidEnterBackground", "WillEnterForeground"])
            #expect(client.lifecycleState == .inactive)
            #expect(DeeplinkerNames.objectPath(forAppID: "org.example.my-app") == "/org/example/my_app")
            await client.stop()
        }
    }

    @Test func reannouncesItsStateWhenTheDaemonRestarts() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let routes = Recorder<IncomingRoute>()
            let appeared = Recorder<String>()
            let client = try DeeplinkerApp(appID: app, busAddress: f.bus.address)
            client.onDaemonAppeared { appeared.put($0) }
            try await client.start { routes.put($0) }
            client.becameActive()
            let proxy = try f.proxy()
            defer { proxy.connection.close() }
            _ = try await proxy.openURL(appID: app, url: "bestrecipes://recipe/1")
            _ = try await routes.next()

            try await f.stopDaemon()
            // A fresh state directory: the new daemon knows nothing of the app's state.
            try await f.startDaemon(stateDirectory: f.root + "/state2")
            let owner = try await appeared.next()
            #expect(owner == f.daemonUniqueName)
            #expect(try await proxy.appState(appID: app) == "active")
            let reply = try await proxy.openURL(appID: app, url: "bestrecipes://recipe/2")
            #expect(try await routes.next().invocationID == reply.invocationID)
            await client.stop()
        }
    }

    @Test func routeSequenceAcknowledgesWhenTaken() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let client = try DeeplinkerApp(appID: app, busAddress: f.bus.address)
            let sequence = try await client.routes()
            let proxy = try f.proxy()
            defer { proxy.connection.close() }
            let reply = try await proxy.openURL(appID: app, url: "bestrecipes://home")
            client.becameActive()
            var iterator = sequence.makeAsyncIterator()
            let route = await iterator.next()
            #expect(route?.invocationID == reply.invocationID)
            #expect(route?.target == "home")
            sequence.finish()
            await client.stop()
        }
    }
}
