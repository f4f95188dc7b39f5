import Testing
@testable import DeeplinkerCore

/// Shortcuts, web activities and the general Invoke dispatch.
struct ShortcutActivityInvokeTests {
    let registry: AppRegistry
    init() throws { registry = try RoutingFixtures.examples() }
    let app = "com.bestrecipes.App"

    @Test func shortcutErrors() {
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveShortcut(appID: app, type: "com.bestrecipes.nope") }
            == .unknownShortcut(app: app, type: "com.bestrecipes.nope"))
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveShortcut(appID: app, type: "com.bestrecipes.search", publishedShortcuts: []) }
            == .shortcutUnavailable(app: app, type: "com.bestrecipes.search"))
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveShortcut(appID: "com.nope.App", type: "x") } == .unknownApp("com.nope.App"))
    }

    @Test func shortcutsToPublish() throws {
        let list = try registry.shortcutsToPublish(appID: app, types: ["com.bestrecipes.search", "com.bestrecipes.favorites", "com.bestrecipes.search"])
        #expect(list.map(\.type) == ["com.bestrecipes.search", "com.bestrecipes.favorites"])
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try registry.shortcutsToPublish(appID: app, types: ["x"]) }?.name == "UnknownShortcut")
    }

    @Test func webActivities() throws {
        let r = try registry.resolveActivity(appID: app, activityType: "browsing-web", webpageURL: "https://bestrecipes.com/recipe?id=4")
        #expect(r.resolvedRoute?.route == Route(target: "recipe", parameters: ["id": "4"], source: .activity))
        #expect(try registry.resolveActivity(appID: app, activityType: "browsing-web", webpageURL: "") == .nothing)
        #expect(try registry.resolveActivity(appID: "com.example.Apartments", activityType: "browsing-web", webpageURL: "") == .restore)
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveActivity(appID: app, activityType: "handoff", webpageURL: "https://bestrecipes.com/") }?.name == "Unsupported")
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveActivity(appID: app, activityType: "browsing-web", webpageURL: "bestrecipes://home") }?.name == "InvalidURL")
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveActivity(appID: app, activityType: "browsing-web", webpageURL: "https://other.example/") }?.name == "NoRoute")
    }

    @Test func invokeDispatchesBySource() throws {
        #expect(try registry.resolveInvoke(appID: app, source: "url", input: "bestrecipes://home").resolvedRoute?.route.source == .url)
        #expect(try registry.resolveInvoke(appID: "", source: "url", input: "bestrecipes://home").resolvedRoute?.appID == app)
        #expect(try registry.resolveInvoke(appID: app, source: "notification", input: #"{"type":"home"}"#, platformData: ["action": "reply"]).resolvedRoute?.route.source == .notification)
        #expect(try registry.resolveInvoke(appID: app, source: "shortcut", input: "com.bestrecipes.favorites").resolvedRoute?.route.parameters == ["tab": "favorites"])
        #expect(try registry.resolveInvoke(appID: app, source: "activity", input: "https://bestrecipes.com/home").resolvedRoute?.route.source == .activity)
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveInvoke(appID: app, source: "activity", input: "https://bestrecipes.com/home", platformData: ["activity-type": "other"]) }?.name == "Unsupported")
        #expect(try registry.resolveInvoke(appID: app, source: "launch", input: #"{"url":"bestrecipes://home"}"#).resolvedRoute?.route.target == "home")
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveInvoke(appID: app, source: "restore", input: "") }?.name == "Unsupported")
        let big = String(repeating: "x", count: Limits.stringArgumentBytes + 1)
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveInvoke(appID: app, source: "shortcut", input: big) }?.name == "TooLarge")
    }
}
