import DBusKit
import Foundation
import Testing
import DeeplinkerTestSupport

/// The basic scenarios of the pending deeplink (cold launches, background and foreground,
/// superseding, expiry, refused deliveries), each on its own private bus with its own daemon and
/// stand-in apps.
@Suite("Integration: seed scenarios")
struct IntegrationSeedScenarioTests {
    let recipes = TestRouteFiles.recipes
    let apartments = TestRouteFiles.apartments

    // MARK: - Cold launches

    @Test("cold launch from a link: bus activation by Activate with the token, the route waits for BecameActive, delivered once")
    func coldLaunchFromLinkByBusActivation() async throws {
        try await DaemonFixture.withDaemon(
            routeFiles: [recipes: try TestRouteFiles.shipped(recipes, ["launch": "\"dbus\""])], activatable: [recipes]) { f in
            #expect(try await f.appState(recipes) == "not-running")
            let url = "bestrecipes://recipe/12?country=FR"
            let reply = DaemonFixture.RouteReply(try await f.call("Invoke", [
                .string(recipes), .string("url"), .string(url),
                .variantDictionary(["activation-token": .string("tok-3"), "desktop-startup-id": .string("sid-3")]),
            ]))
            #expect(reply.target == "recipe")
            #expect(reply.parameters == ["id": "12", "country": "FR"])
            try await f.waitStatus(reply.id, "delivered")
            // D-Bus activation is Activate on the name (SPEC §6), carrying the invocation's token.
            let activated = try await f.pythonReceived.first { $0.target == "(activate)" }
            #expect(activated.platformData["activation-token"] == "tok-3")
            #expect(activated.platformData["desktop-startup-id"] == "sid-3")
            #expect(activated.invocationID == reply.id)
            #expect(f.pythonReceived.all.map(\.target) == ["(activate)", "recipe"], "Activate starts it, then the route")
            let got = try await f.pythonReceived.first { $0.invocationID == reply.id && $0.target == "recipe" }
            #expect(got.target == "recipe")
            #expect(got.parameters == ["id": "12", "country": "FR"])
            #expect(got.platformData["deeplinker.source"] == "url")
            #expect(got.platformData["deeplinker.url"] == url)
            #expect(got.platformData["deeplinker.redelivery"] == nil)
            #expect(f.statuses(reply.id) == ["pending", "delivering", "delivered"])
            #expect(f.pythonReceived.count { $0.appID == recipes && $0.target == "recipe" } == 1)
            #expect(try await f.appState(recipes) == "active")
        }
    }

    @Test("cold launch from a notification: argv launch, delivered once with the action key")
    func coldLaunchFromNotificationByArgv() async throws {
        try await DaemonFixture.withDaemon(startDaemon: false) { f in
            try f.writeRouteFile(apartments, try TestRouteFiles.shipped(apartments, ["launch": TestRouteFiles.array(f.pythonStandInArgv(apartments))]))
            try await f.startDaemon()
            let reply = try await f.activateNotification(apartments, #"{"data": {"messageId": "42", "notificationId": "n-1"}}"#, action: "reply")
            #expect(reply.target == "messages.details")
            #expect(reply.parameters == ["id": "42"])
            try await f.waitStatus(reply.id, "delivered")
            let got = try await f.pythonReceived.first { $0.invocationID == reply.id }
            #expect(got.target == "messages.details")
            #expect(got.parameters == ["id": "42"])
            #expect(got.platformData["deeplinker.source"] == "notification")
            #expect(got.platformData["deeplinker.action"] == "reply")
            #expect(got.platformData["deeplinker.url"] == nil)
            #expect(f.statuses(reply.id) == ["pending", "delivering", "delivered"])
            #expect(f.pythonReceived.count { $0.appID == apartments } == 1)
        }
    }

    @Test("cold launch from a shortcut: argv launch, delivered once")
    func coldLaunchFromShortcutByArgv() async throws {
        try await DaemonFixture.withDaemon(startDaemon: false) { f in
            try f.writeRouteFile(recipes, try TestRouteFiles.shipped(recipes, ["launch": TestRouteFiles.array(f.pythonStandInArgv(recipes))]))
            try await f.startDaemon()
            let reply = try await f.performShortcut(recipes, "com.bestrecipes.favorites")
            #expect(reply.target == "home")
            #expect(reply.parameters == ["tab": "favorites"])
            try await f.waitStatus(reply.id, "delivered")
            let got = try await f.pythonReceived.first { $0.invocationID == reply.id }
            #expect(got.target == "home")
            #expect(got.parameters == ["tab": "favorites"])
            #expect(got.platformData["deeplinker.source"] == "shortcut")
            #expect(f.statuses(reply.id) == ["pending", "delivering", "delivered"])
            #expect(f.pythonReceived.count { $0.appID == recipes } == 1)
        }
    }

    // MARK: - Lifecycle and delivery

    @Test("background, the notification callback twice, foreground, active: exactly one delivery")
    func backgroundNotificationTwiceThenActive() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes, ["dedupe-window": "\"60s\""])]) { f in
            let app = try await f.activeStandIn(recipes)
            try app.emit("DidEnterBackground")
            #expect(try await app.stateSeenByDaemon() == "background")
            let payload = #"{"type": "recipe", "id": "0005", "notification-id": "n-77"}"#
            let first = try await f.activateNotification(recipes, payload)
            let second = try await f.activateNotification(recipes, payload)
            #expect(first.id == second.id)
            #expect(first.parameters == ["id": "5"])
            #expect(try await f.history(recipes).filter { $0.id == first.id }.count == 1)
            #expect(app.received.all.isEmpty)
            try app.emit("WillEnterForeground")
            #expect(try await app.stateSeenByDaemon() == "inactive")
            #expect(app.received.all.isEmpty)
            try app.becomeActive()
            try await f.waitStatus(first.id, "delivered")
            try app.becomeActive()
            let barrier = try await f.barrier(app, url: "bestrecipes://home")
            #expect(app.received.all.map(\.invocationID) == [first.id, barrier])
            #expect(try await f.history(recipes).count == 2)
            app.close()
        }
    }

    @Test("an invocation for an active app is delivered at once with its platform data")
    func immediateDeliveryToActiveApp() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)]) { f in
            let app = try await f.activeStandIn(recipes)
            let url = "https://bestrecipes.com/recipe/9?limit=007"
            let before = Int64(Date().timeIntervalSince1970 * 1_000_000)
            let reply = try await f.openURL(recipes, url)
            try await f.waitStatus(reply.id, "delivered")
            let got = try await app.received.first { $0.invocationID == reply.id }
            #expect(got.target == "recipe")
            #expect(got.parameters == ["id": "9", "limit": "7"])
            #expect(got.source == "universal-link")
            #expect(got.platformData["deeplinker.url"]?.stringValue == url)
            #expect(!got.isRedelivery)
            let receivedAt = got.platformData["deeplinker.received-at"]
            if case .int64 = receivedAt {} else { Issue.record("deeplinker.received-at is not an int64: \(String(describing: receivedAt))") }
            #expect((receivedAt?.int64Value ?? 0) >= before - 1_000_000)
            #expect(f.statuses(reply.id) == ["pending", "delivering", "delivered"])
            #expect(try await f.pending(recipes) == nil)
            #expect(try await f.history(recipes).first?.status == "delivered")
            app.close()
        }
    }

    @Test("a newer route supersedes the pending one; only the newer is delivered")
    func supersede() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)]) { f in
            let app = try await f.standIn(recipes)
            let older = try await f.openURL(recipes, "bestrecipes://recipe/1")
            let newer = try await f.openURL(recipes, "bestrecipes://recipe/2")
            let superseded = try await f.waitStatus(older.id, "superseded")
            #expect(superseded.detail.contains(newer.id))
            #expect(try await f.pending(recipes)?.id == newer.id)
            try app.becomeActive()
            try await f.waitStatus(newer.id, "delivered")
            #expect(app.received.all.map(\.invocationID) == [newer.id])
            #expect(app.received.all.first?.parameters == ["id": "2"])
            let history = try await f.history(recipes)
            #expect(history.first { $0.id == older.id }?.status == "superseded")
            #expect(history.first { $0.id == newer.id }?.status == "delivered")
            app.close()
        }
    }

    @Test("a waiting route expires on its own once past pending-ttl, with no call to make the daemon look")
    func pendingTTLExpiresUnasked() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes, ["pending-ttl": "\"200ms\""])]) { f in
            let reply = try await f.openURL(recipes, "bestrecipes://recipe/4")
            #expect(f.statuses(reply.id) == ["pending"])
            let expired = try await f.waitStatus(reply.id, "expired")
            #expect(expired.detail.contains("pending-ttl"))
            #expect(try await f.history(recipes).first { $0.id == reply.id }?.status == "expired")
        }
    }

    @Test("a route older than pending-ttl expires at BecameActive instead of being delivered")
    func pendingTTLExpiry() async throws {
        let clock = TestClock()
        try await DaemonFixture.withDaemon(
            routeFiles: [recipes: try TestRouteFiles.shipped(recipes, ["pending-ttl": "\"300ms\""])], clock: clock) { f in
            let app = try await f.standIn(recipes)
            let reply = try await f.openURL(recipes, "bestrecipes://recipe/3")
            #expect(try await f.history(recipes).first { $0.id == reply.id }?.receivedAt == clock.nowMicroseconds())
            clock.advance(.milliseconds(301))
            try app.becomeActive()
            let expired = try await f.waitStatus(reply.id, "expired")
            #expect(expired.detail.contains("pending-ttl"))
            #expect(try await f.pending(recipes) == nil)
            let barrier = try await f.barrier(app, url: "bestrecipes://home")
            #expect(app.received.all.map(\.invocationID) == [barrier])
            #expect(try await f.history(recipes).first { $0.id == reply.id }?.status == "expired")
            app.close()
        }
    }

    @Test("a refused delivery stays pending and is delivered again (not as a redelivery) at the next BecameActive")
    func refusalThenRedelivery() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)]) { f in
            let app = try await f.activeStandIn(recipes, answer: .refuse("org.example.Error.NotNow"))
            let reply = try await f.openURL(recipes, "bestrecipes://search?q=soup")
            let refused = try await f.changes.first { $0.invocationID == reply.id && $0.status == "pending" && !$0.detail.isEmpty }
            #expect(refused.detail.contains("org.example.Error.NotNow"))
            #expect(try await f.pending(recipes)?.id == reply.id)
            app.setAnswer(.acknowledge)
            try app.becomeActive()
            try await f.waitStatus(reply.id, "delivered")
            let calls = app.received.all
            #expect(calls.map(\.invocationID) == [reply.id, reply.id])
            #expect(calls.map(\.isRedelivery) == [false, false])
            #expect(f.statuses(reply.id) == ["pending", "delivering", "pending", "delivering", "delivered"])
            app.close()
        }
    }

    @Test("after max-attempts refusals the invocation is failed and never delivered again")
    func maxAttemptsFailed() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes, ["max-attempts": "2"])]) { f in
            let app = try await f.activeStandIn(recipes, answer: .refuse("org.example.Error.Broken"))
            let reply = try await f.openURL(recipes, "bestrecipes://recipe/8")
            _ = try await f.changes.first { $0.invocationID == reply.id && $0.status == "pending" && !$0.detail.isEmpty }
            try app.becomeActive()
            let failed = try await f.waitStatus(reply.id, "failed")
            #expect(failed.detail.contains("2 attempts"))
            #expect(try await f.pending(recipes) == nil)
            app.setAnswer(.acknowledge)
            try app.becomeActive()
            let barrier = try await f.barrier(app, url: "bestrecipes://home")
            #expect(app.received.all.map(\.invocationID) == [reply.id, reply.id, barrier])
            #expect(try await f.history(recipes).first { $0.id == reply.id }?.status == "failed")
            app.close()
        }
    }

    @Test("a delivery that times out is retried at the next BecameActive flagged deeplinker.redelivery")
    func timeoutThenRedeliveryFlag() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes, ["delivery-timeout": "\"300ms\""])]) { f in
            let app = try await f.activeStandIn(recipes, answer: .hang)
            let reply = try await f.openURL(recipes, "bestrecipes://recipe/4")
            // The behaviour under test is the time-out: its signal is what we wait for.
            let timedOut = try await f.changes.first { $0.invocationID == reply.id && $0.status == "pending" && !$0.detail.isEmpty }
            #expect(timedOut.detail.contains("timed out"))
            app.setAnswer(.acknowledge)
            try app.becomeActive()
            try await f.waitStatus(reply.id, "delivered")
            let calls = app.received.all
            #expect(calls.map(\.invocationID) == [reply.id, reply.id])
            #expect(calls.map(\.isRedelivery) == [false, true])
            app.close()
        }
    }

    @Test("a hung app delays neither another app's delivery nor its own invocations")
    func hungAppDoesNotDelayAnother() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [
            recipes: try TestRouteFiles.shipped(recipes, ["delivery-timeout": "\"60s\""]),
            apartments: try TestRouteFiles.shipped(apartments),
        ]) { f in
            let hung = try await f.activeStandIn(recipes, answer: .hang)
            let other = try await f.activeStandIn(apartments)
            let stuck = try await f.openURL(recipes, "bestrecipes://recipe/1")
            _ = try await hung.received.first { $0.invocationID == stuck.id }
            let fine = try await f.openURL(apartments, "deeplinkTutorial://messages/3")
            try await f.waitStatus(fine.id, "delivered")
            #expect(other.received.all.map(\.invocationID) == [fine.id])
            // The hung delivery is still in flight; a new invocation for the hung app is answered anyway.
            #expect(hung.heldCount == 1)
            #expect(try await f.pending(recipes)?.id == stuck.id)
            let queued = try await f.openURL(recipes, "bestrecipes://recipe/2")
            #expect(f.statuses(stuck.id) == ["pending", "delivering"])
            hung.setAnswer(.acknowledge)
            hung.answerHeldCalls()
            try await f.waitStatus(stuck.id, "delivered")
            try await f.waitStatus(queued.id, "delivered")
            #expect(hung.received.all.map(\.invocationID) == [stuck.id, queued.id])
            hung.close()
            other.close()
        }
    }

    @Test("an impostor's BecameActive and SetAppState are ignored; the owner's deliver")
    func impostorIgnored() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)]) { f in
            let app = try await f.standIn(recipes)
            let impostor = try await f.standIn(recipes, ownName: false)
            let reply = try await f.openURL(recipes, "bestrecipes://recipe/6")
            try impostor.becomeActive()
            #expect(try await impostor.stateSeenByDaemon() == "inactive")
            let denied = try await f.failingCall("SetAppState", [.string(recipes), .string("active")], from: impostor.connection)
            #expect(denied.name == "org.deeplinker.Error.AccessDenied")
            #expect(denied.message.contains(impostor.uniqueName))
            #expect(try await f.pending(recipes)?.id == reply.id)
            try app.becomeActive()
            try await f.waitStatus(reply.id, "delivered")
            #expect(app.received.all.map(\.invocationID) == [reply.id])
            #expect(impostor.received.all.isEmpty)
            app.close()
            impostor.close()
        }
    }

    @Test("lifecycle-senders = any: anyone reports the state; delivery goes to the owner at delivery time")
    func lifecycleSendersAny() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes, ["lifecycle-senders": "\"any\""])]) { f in
            let reporter = try await f.standIn(recipes, ownName: false)
            let reply = try await f.openURL(recipes, "bestrecipes://recipe/10")
            try reporter.becomeActive()
            #expect(try await reporter.stateSeenByDaemon() == "active")
            // Nobody owns the name: the route stays pending, no attempt is spent.
            #expect(try await f.pending(recipes)?.id == reply.id)
            #expect(f.statuses(reply.id) == ["pending"])
            let owner = try await f.standIn(recipes)
            #expect(try await f.appState(recipes) == "inactive")
            try await reporter.setAppState("active")
            try await f.waitStatus(reply.id, "delivered")
            #expect(owner.received.all.map(\.invocationID) == [reply.id])
            #expect(reporter.received.all.isEmpty)
            reporter.close()
            owner.close()
        }
    }

    @Test("owner change: the route stays pending for the new owner's BecameActive")
    func ownerChange() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)]) { f in
            let first = try await f.activeStandIn(recipes)
            try await first.connection.releaseName(recipes)
            #expect(try await first.stateSeenByDaemon() == "not-running")
            let second = try await f.standIn(recipes)
            #expect(try await second.stateSeenByDaemon() == "inactive")
            let reply = try await f.openURL(recipes, "bestrecipes://recipe/11")
            try first.becomeActive()
            #expect(try await first.stateSeenByDaemon() == "inactive")
            #expect(try await f.pending(recipes)?.id == reply.id)
            try second.becomeActive()
            try await f.waitStatus(reply.id, "delivered")
            #expect(second.received.all.map(\.invocationID) == [reply.id])
            #expect(first.received.all.isEmpty)
            first.close()
            second.close()
        }
    }

    @Test("an active app whose name changes hands: a new route waits for the new owner")
    func ownerReplacedWhileActive() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)]) { f in
            let first = try await f.activeStandIn(recipes)
            // The second waits in the bus's queue for the name and takes it over when the first goes.
            let second = try await f.standIn(recipes, ownName: false)
            let owners = Recorder<String>()
            try await second.connection.onNameOwnerChanged(name: recipes) { _, _, new in owners.put(new) }
            #expect(try await second.connection.requestName(recipes, queue: true) == .inQueue)
            first.connection.close()
            let secondName = second.uniqueName
            _ = try await owners.first { $0 == secondName }
            #expect(try await second.stateSeenByDaemon() == "inactive")
            let reply = try await f.openURL(recipes, "bestrecipes://recipe/12")
            #expect(try await f.pending(recipes)?.id == reply.id)
            #expect(f.statuses(reply.id) == ["pending"])
            try second.becomeActive()
            try await f.waitStatus(reply.id, "delivered")
            #expect(second.received.all.map(\.invocationID) == [reply.id])
            second.close()
        }
    }

    @Test("App-Clip restore: an empty webpage URL restores the last delivered route (restore-last-route)")
    func appClipRestore() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [
            apartments: try TestRouteFiles.shipped(apartments),
            recipes: try TestRouteFiles.shipped(recipes),
        ]) { f in
            let app = try await f.activeStandIn(apartments)
            let link = try await f.openURL(apartments, "deeplinkTutorial://messages/7")
            try await f.waitStatus(link.id, "delivered")
            let restored = try await f.continueActivity(apartments, "browsing-web", "")
            #expect(!restored.id.isEmpty)
            #expect(restored.target == "messages.details")
            #expect(restored.parameters == ["id": "7"])
            try await f.waitStatus(restored.id, "delivered")
            let got = try await app.received.first { $0.invocationID == restored.id }
            #expect(got.source == "restore")
            #expect(got.target == "messages.details")
            #expect(got.parameters == ["id": "7"])
            #expect(try await f.history(apartments).first { $0.id == restored.id }?.source == "restore")
            // Without restore-last-route: success with an empty id and target.
            let nothing = try await f.continueActivity(recipes, "browsing-web", "")
            #expect(nothing == DaemonFixture.RouteReply([.string(""), .string(""), .stringDictionary([:])]))
            app.close()
        }
    }

    @Test("SetAppState: the owner may, others get AccessDenied; the reply comes before the delivery")
    func setAppStateSenderRule() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)]) { f in
            let app = try await f.standIn(recipes)
            let reply = try await f.openURL(recipes, "bestrecipes://recipe/13")
            let denied = try await f.failingCall("SetAppState", [.string(recipes), .string("active")])
            #expect(denied.name == "org.deeplinker.Error.AccessDenied")
            #expect(denied.message.contains(f.client.uniqueName))
            let badState = try await f.failingCall("SetAppState", [.string(recipes), .string("sleeping")], from: app.connection)
            #expect(badState.name == "org.deeplinker.Error.InvalidParameter")
            #expect(badState.message.contains("sleeping"))
            let notRunning = try await f.failingCall("SetAppState", [.string(recipes), .string("not-running")], from: app.connection)
            #expect(notRunning.name == "org.deeplinker.Error.InvalidParameter")
            let unknown = try await f.failingCall("SetAppState", [.string("com.nope.App"), .string("active")], from: app.connection)
            #expect(unknown.name == "org.deeplinker.Error.UnknownApp")
            #expect(unknown.message.contains("com.nope.App"))
            #expect(try await f.pending(recipes)?.id == reply.id)
            try await app.setAppState("active")
            try await f.waitStatus(reply.id, "delivered")
            let got = try #require(app.received.all.first)
            #expect(got.invocationID == reply.id)
            #expect(got.afterSetAppStateReply)
            try await app.setAppState("background")
            #expect(try await f.appState(recipes) == "background")
            app.close()
        }
    }
}
