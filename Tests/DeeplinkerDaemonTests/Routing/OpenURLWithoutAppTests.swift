import DBusKit
import DeeplinkerTestSupport
import Testing

/// `OpenURL` with `app_id` `""`: the app comes from the URL, and so does the record of a refusal.
@Suite("OpenURL without an app id")
struct OpenURLWithoutAppTests {
    @Test("a refusal is recorded as rejected for the app that claims the URL")
    func refusalRecordedForClaimant() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [TestRouteFiles.recipes: try TestRouteFiles.shipped(TestRouteFiles.recipes)]) { f in
            let routed = try await f.call("OpenURL", [.string(""), .string("bestrecipes://recipe/5")])
            #expect(routed[1] == .string("recipe"))
            let error = await #expect(throws: DBusError.self) {
                _ = try await f.call("OpenURL", [.string(""), .string("bestrecipes://recipe/abc")])
            }
            #expect(error?.name == "org.deeplinker.Error.InvalidParameter")
            #expect(error?.message.contains("abc") == true)
            let rows = try await f.call("GetHistory", [.string("com.bestrecipes.App"), .uint32(0)]).first?.arrayElements ?? []
            let statuses = rows.compactMap { $0.structureFields?[4].stringValue }
            #expect(statuses == ["rejected", "pending"])
            let unclaimed = await #expect(throws: DBusError.self) {
                _ = try await f.call("OpenURL", [.string(""), .string("nobody://x")])
            }
            #expect(unclaimed?.name == "org.deeplinker.Error.NoApp")
        }
    }
}
