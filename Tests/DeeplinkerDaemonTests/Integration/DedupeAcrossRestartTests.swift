import DeeplinkerTestSupport
import Testing

/// SPEC §6's de-duplication across a restart, on a test clock: the daemon is stopped and started on
/// the same state directory; the new one loads no keys at start and finds the first invocation
/// through the store's index when the repeat arrives.
@Suite("Dedupe: across a restart, by the app's own window")
struct DedupeAcrossRestartTests {
    let recipes = TestRouteFiles.recipes
    let url = "bestrecipes://recipe/61"

    @Test("within the window after a restart: the first's id, even delivered, and nothing new; after it: a new one")
    func withinTheWindowTheFirstAfterItANewOne() async throws {
        let clock = TestClock()
        let files = [recipes: try TestRouteFiles.shipped(recipes, ["dedupe-window": "\"60s\""])]
        try await DaemonFixture.withDaemon(routeFiles: files, clock: clock) { f in
            let app = try await f.activeStandIn(recipes)
            let first = try await f.openURL(recipes, url)
            try await f.waitStatus(first.id, "delivered")
            app.close()
            try await f.stopDaemon()

            clock.advance(.seconds(30))
            try await f.startDaemon()
            let again = try await f.openURL(recipes, url)
            #expect(again == first)
            let history = try await f.history()
            #expect(history.map(\.id) == [first.id], "nothing new is recorded")
            #expect(history.first?.status == "delivered")

            // Another restart inside the same window: still the first.
            try await f.stopDaemon()
            clock.advance(.seconds(29))
            try await f.startDaemon()
            #expect(try await f.openURL(recipes, url) == first)
            #expect(try await f.history().count == 1)

            // Past the window (60 s after the first): a new invocation.
            clock.advance(.seconds(2))
            let later = try await f.openURL(recipes, url)
            #expect(later.id != first.id)
            #expect(try await f.history().map(\.id) == [later.id, first.id])
        }
    }

    @Test("the window that counts is the app's, not an hour: a 2 h window holds 90 minutes after a restart")
    func theAppsWindowNotAnHour() async throws {
        let clock = TestClock()
        let files = [recipes: try TestRouteFiles.shipped(recipes, ["dedupe-window": "\"2h\""])]
        try await DaemonFixture.withDaemon(routeFiles: files, clock: clock) { f in
            let first = try await f.openURL(recipes, url)
            try await f.stopDaemon()
            clock.advance(.seconds(90 * 60))
            try await f.startDaemon()
            #expect(try await f.openURL(recipes, url) == first)
            #expect(try await f.history().count == 1)
        }
    }

    @Test("a repeat of a different input, or one after a restart past the window, is new")
    func otherInputOrPastTheWindowIsNew() async throws {
        let clock = TestClock()
        let files = [recipes: try TestRouteFiles.shipped(recipes, ["dedupe-window": "\"10s\""])]
        try await DaemonFixture.withDaemon(routeFiles: files, clock: clock) { f in
            let first = try await f.openURL(recipes, url)
            try await f.stopDaemon()
            clock.advance(.seconds(3))
            try await f.startDaemon()
            #expect(try await f.openURL(recipes, "bestrecipes://recipe/62").id != first.id)
            try await f.stopDaemon()
            clock.advance(.seconds(8))
            try await f.startDaemon()
            let after = try await f.openURL(recipes, url)
            #expect(after.id != first.id)
            #expect(try await f.history().count == 3)
        }
    }
}
