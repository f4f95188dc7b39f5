import DBusKit
import DeeplinkerCore
import DeeplinkerProtocol
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Testing

/// The orders SPEC §3 and §6 state, seen in process with a store whose two steps the test takes
/// itself (``MemoryInvocationStore/Mode/stepped``): a delivery leaves once its `delivering` is
/// written (committed), not before; a reply only once the change is durable; `SetAppState` replies
/// before the delivery it frees.
@Suite("Orders: delivery after written, reply after durable, SetAppState's reply first")
struct OrderTests {
    static let app = "org.example.Any"
    /// Anyone may report its state; deliveries are `Deliver` signals (recorded as sent).
    static let routes = [app: TestRouteFiles.minimal(scheme: "any", ["lifecycle-senders": "\"any\"", "delivery": "\"signal\""])]

    /// A call answered after every call sent before it: the bus thread has run those.
    static func roundTrip(_ d: InProcessDaemon) async throws {
        _ = try await d.reply("GetAppState", [.string(app)])
    }

    @Test("OpenURL to an active app: nothing leaves before the commit; the delivery after it; the reply only once durable")
    func deliveryAfterWrittenReplyAfterDurable() async throws {
        let store = MemoryInvocationStore(mode: .stepped)
        try await InProcessDaemon.withDaemon(routeFiles: Self.routes, store: store) { (d: InProcessDaemon) async throws in
            let active = d.send("SetAppState", [.string(Self.app), .string("active")])
            try await Self.roundTrip(d)
            await store.writeQueued()
            store.syncWritten()
            _ = try await active.wait { _ in true }

            let answer = d.send("OpenURL", [.string(Self.app), .string("any://page/1")])
            try await Self.roundTrip(d)
            #expect(store.waiting.toWrite == 1, "the invocation waits for its commit")
            #expect(!d.timeline.all.contains("sent Deliver"), "no delivery before `delivering` is written: \(d.timeline.all)")
            #expect(!d.timeline.all.contains("reply OpenURL"))

            await store.writeQueued()
            try await d.timeline.wait { $0 == "sent Deliver" }
            try await Self.roundTrip(d)
            #expect(!d.timeline.all.contains("reply OpenURL"), "written is not durable: no reply yet")

            store.syncWritten()
            let reply = try #require(try await answer.wait { _ in true }.first).get()
            #expect(reply.first?.stringValue?.isEmpty == false)
            let timeline = d.timeline.all
            let delivered = try #require(timeline.firstIndex(of: "sent Deliver"))
            let replied = try #require(timeline.firstIndex(of: "reply OpenURL"))
            #expect(delivered < replied, "\(timeline)")
        }
    }

    @Test("SetAppState replies before the delivery it frees, even with a store that commits at once")
    func setAppStateRepliesFirst() async throws {
        // `activate-action`: the delivery is a method call sent at once, where the commit is written.
        let routes = [Self.app: TestRouteFiles.minimal(scheme: "any", ["lifecycle-senders": "\"any\""])]
        try await InProcessDaemon.withDaemon(routeFiles: routes) { (d: InProcessDaemon) async throws in
            await d.daemon.core.ownerChanged(name: Self.app, newOwner: ":1.5")
            _ = try await d.reply("OpenURL", [.string(Self.app), .string("any://page/2")])
            #expect(!d.timeline.all.contains("sent ActivateAction"), "pending while the app is inactive")

            let answer = d.send("SetAppState", [.string(Self.app), .string("active")], sender: ":1.5")
            try await d.timeline.wait { $0 == "sent ActivateAction" }
            _ = try await answer.wait { _ in true }
            let timeline = d.timeline.all
            let replied = try #require(timeline.firstIndex(of: "reply SetAppState"))
            let delivered = try #require(timeline.firstIndex(of: "sent ActivateAction"))
            #expect(replied < delivered, "\(timeline)")
        }
    }
}

/// SPEC §6: what the daemon keeps in memory beside the database changes only when its write
/// commits; a refused write leaves both as they were (``MemoryInvocationStore/Mode/refusing``).
@Suite("Memory changes only with its commit")
struct MemoryWithCommitTests {
    static let recipes = TestRouteFiles.recipes

    @Test("a refused SetShortcuts leaves the published set as it was")
    func shortcuts() async throws {
        let store = MemoryInvocationStore()
        try await InProcessDaemon.withDaemon(shipped: [Self.recipes], store: store) { (d: InProcessDaemon) async throws in
            store.setMode(.refusing)
            let error = try await d.error("SetShortcuts", [.string(Self.recipes), .strings(["com.bestrecipes.search"])])
            #expect(error.name == "org.deeplinker.Error.StorageFailed")
            store.setMode(.atOnce)
            let reply = try await d.reply("PerformShortcut", [.string(Self.recipes), .string("com.bestrecipes.favorites")])
            #expect(reply.count == 3, "never published: every shortcut is still available")
            #expect(await d.daemon.core.published[Self.recipes] == nil)

            _ = try await d.reply("SetShortcuts", [.string(Self.recipes), .strings(["com.bestrecipes.search"])])
            #expect(await d.daemon.core.published[Self.recipes] == ["com.bestrecipes.search"], "a committed one is")
        }
    }

    @Test("a refused SetDomainVerification leaves the verdict as it was")
    func verdicts() async throws {
        let store = MemoryInvocationStore()
        try await InProcessDaemon.withDaemon(shipped: [Self.recipes], store: store) { (d: InProcessDaemon) async throws in
            let arguments: [DBusValue] = [.string(Self.recipes), .string("bestrecipes.com"), .string("verified"), .string("")]
            store.setMode(.refusing)
            let error = try await d.error("SetDomainVerification", arguments)
            #expect(error.name == "org.deeplinker.Error.StorageFailed")
            #expect(await d.daemon.core.domainChecks.isEmpty)
            store.setMode(.atOnce)
            _ = try await d.reply("SetDomainVerification", arguments)
            #expect(await d.daemon.core.domainChecks.count == 1)
        }
    }

    @Test("a posted notification whose record is refused is not remembered; a refused close keeps it")
    func notifications() async throws {
        let store = MemoryInvocationStore()
        try await InProcessDaemon.withDaemon(shipped: [Self.recipes], store: store) { (d: InProcessDaemon) async throws in
            let core = d.daemon.core
            store.setMode(.refusing)
            let refused = await core.rememberNotification(id: 7, appID: Self.recipes, payload: #"{"type": "recipe", "id": "1"}"#)
            await #expect(throws: StoreError.self) { try await refused.wait() }
            #expect(await core.postedNotifications[7] == nil, "not remembered: its record was refused")

            store.setMode(.atOnce)
            try await core.rememberNotification(id: 8, appID: Self.recipes, payload: #"{"type": "recipe", "id": "2"}"#).wait()
            #expect(await core.postedNotifications[8] != nil)
            store.setMode(.refusing)
            await core.notificationClosed(8)
            try await Self.settle(d)
            #expect(await core.postedNotifications[8] != nil, "a close that could not be stored keeps it")
            store.setMode(.atOnce)
            await core.notificationClosed(8)
            try await Self.settle(d)
            #expect(await core.postedNotifications[8] == nil)
        }
    }

    @Test("a click or close arriving while a notification's record is written waits for its commit, then applies; a refused record drops it")
    func clickWhileWritten() async throws {
        let store = MemoryInvocationStore()
        try await InProcessDaemon.withDaemon(shipped: [Self.recipes], store: store) { (d: InProcessDaemon) async throws in
            let core = d.daemon.core
            // The server clicks right behind its Notify reply, before the record commits (SPEC §3).
            store.setMode(.stepped)
            let clicked = await core.rememberNotification(id: 5, appID: Self.recipes, payload: #"{"type": "recipe", "id": "5"}"#)
            await core.notificationClicked(id: 5, action: "default")
            #expect(await core.postedNotifications[5] == nil, "not in memory before its commit")
            store.setMode(.atOnce)
            await store.writeQueued()
            store.syncWritten()
            try await clicked.wait()
            try await Self.settle(d)
            let routed = try await store.history(appID: Self.recipes, limit: 10)
            #expect(routed.map { $0.route?.parameters["id"] } == ["5"], "the held click routed once the record committed")
            #expect(routed.first?.source == .notification)

            // A close held the same way forgets it once both are written; a click behind it routes nothing.
            store.setMode(.stepped)
            let closed = await core.rememberNotification(id: 6, appID: Self.recipes, payload: #"{"type": "recipe", "id": "6"}"#)
            await core.notificationClosed(6)
            await core.notificationClicked(id: 6, action: "default")
            store.setMode(.atOnce)
            await store.writeQueued()
            store.syncWritten()
            try await closed.wait()
            try await Self.settle(d)
            try await Self.settle(d)
            #expect(await core.postedNotifications[6] == nil)
            #expect(try await store.notifications()[6] == nil, "the close was stored after the post")

            // A click behind a close whose write is in flight routes nothing either.
            try await core.rememberNotification(id: 8, appID: Self.recipes, payload: #"{"type": "recipe", "id": "8"}"#).wait()
            try await Self.settle(d)
            store.setMode(.stepped)
            await core.notificationClosed(8)
            await core.notificationClicked(id: 8, action: "default")
            store.setMode(.atOnce)
            await store.writeQueued()
            store.syncWritten()
            try await Self.settle(d)
            #expect(await core.postedNotifications[8] == nil)
            #expect(try await store.history(appID: Self.recipes, limit: 10).count == 1, "only the first click routed")

            // A refused record: the click routes nothing.
            store.setMode(.refusing)
            let refused = await core.rememberNotification(id: 7, appID: Self.recipes, payload: #"{"type": "recipe", "id": "7"}"#)
            store.setMode(.atOnce)
            await core.notificationClicked(id: 7, action: "default")
            await #expect(throws: StoreError.self) { try await refused.wait() }
            try await Self.settle(d)
            #expect(try await store.history(appID: Self.recipes, limit: 10).count == 1)
            #expect(await core.notificationsBeingWritten.isEmpty)
        }
    }

    @Test("a refused SetAppState answers StorageFailed and leaves the state as it was; its route waits for the next")
    func setAppState() async throws {
        let app = OrderTests.app
        let store = MemoryInvocationStore()
        try await InProcessDaemon.withDaemon(routeFiles: OrderTests.routes, store: store) { (d: InProcessDaemon) async throws in
            _ = try await d.reply("OpenURL", [.string(app), .string("any://page/1")])
            store.setMode(.refusing)
            let error = try await d.error("SetAppState", [.string(app), .string("active")])
            #expect(error.name == "org.deeplinker.Error.StorageFailed")
            #expect(try await d.reply("GetAppState", [.string(app)]).first?.stringValue == "not-running")
            #expect(!d.timeline.all.contains("sent Deliver"), "no delivery from a change that was not stored")

            store.setMode(.atOnce)
            _ = try await d.reply("SetAppState", [.string(app), .string("active")])
            #expect(try await d.reply("GetAppState", [.string(app)]).first?.stringValue == "active")
            try await d.timeline.wait { $0 == "sent Deliver" }
            store.setMode(.refusing)
            #expect(try await d.error("SetAppState", [.string(app), .string("background")]).name == "org.deeplinker.Error.StorageFailed")
            #expect(try await d.reply("GetAppState", [.string(app)]).first?.stringValue == "active")
        }
    }

    @Test("a refused lifecycle signal or owner change leaves the app's state and owner as they were")
    func lifecycleSignalAndOwner() async throws {
        let app = OrderTests.app
        let store = MemoryInvocationStore()
        try await InProcessDaemon.withDaemon(routeFiles: OrderTests.routes, store: store) { (d: InProcessDaemon) async throws in
            let core = d.daemon.core
            store.setMode(.refusing)
            await core.ownerChanged(name: app, newOwner: ":1.5")
            try await Self.settle(d)
            #expect(await core.engine.owner(of: app) == nil, "an owner whose record was refused is not remembered")
            #expect(await core.engine.state(of: app) == .notRunning)

            store.setMode(.atOnce)
            await core.ownerChanged(name: app, newOwner: ":1.5")
            try await Self.settle(d)
            #expect(await core.engine.state(of: app) == .inactive)
            store.setMode(.refusing)
            await core.lifecycleSignal(path: DeeplinkerBus.objectPath(forAppID: app), member: "BecameActive", sender: ":1.5")
            try await Self.settle(d)
            #expect(await core.engine.state(of: app) == .inactive, "a BecameActive that was not stored")
            #expect(await core.engine.owner(of: app) == ":1.5")

            store.setMode(.atOnce)
            await core.lifecycleSignal(path: DeeplinkerBus.objectPath(forAppID: app), member: "BecameActive", sender: ":1.5")
            try await Self.settle(d)
            #expect(await core.engine.state(of: app) == .active)
        }
    }

    /// Waits until what was written before is durable (its callbacks ran on the bus thread), then
    /// lets the bus thread run what they queued there.
    static func settle(_ d: InProcessDaemon) async throws {
        await d.store.settled()
        _ = try await d.reply("ListApps", [])
    }
}
