import Testing
@testable import DeeplinkerCore

/// Launch options classification in SPEC §3 order, wrong types, and routing of each kind.
struct LaunchClassifierTests {
    func kind(_ json: String) throws -> LaunchKind { try LaunchClassifier.classify(json).kind }

    @Test func order() throws {
        let all = #"{"user-activity":{"webpage-url":"https://a.example/x"},"url":"x://u","remote-notification":{},"shortcut-item":"s"}"#
        #expect(try LaunchClassifier.classify(all) == LaunchClassification(kind: .deepLink, input: .webpageURL("https://a.example/x")))
        #expect(try LaunchClassifier.classify(#"{"url":"x://u","remote-notification":{},"shortcut-item":"s"}"#).input == .url("x://u"))
        #expect(try LaunchClassifier.classify(#"{"local-notification":{"a":1},"shortcut-item":"s"}"#)
            == LaunchClassification(kind: .notification, input: .notification(.object(["a": .number("1")]))))
        #expect(try kind(#"{"remote-notification":{}}"#) == .notification)
        #expect(try LaunchClassifier.classify(#"{"shortcut-item":"s","source-application":"com.x"}"#).input == .shortcut("s"))
        #expect(try kind("") == .appIcon)
        #expect(try kind("{}") == .appIcon)
        #expect(try kind(#"{"source-application":"com.x"}"#) == .unknown)
        #expect(try kind(#"{"other":1}"#) == .unknown)
        #expect(try kind(#"{"user-activity":{}}"#) == .unknown)
    }

    @Test(arguments: [
        #"{"url": 5}"#, #"{"remote-notification": "text"}"#, #"{"local-notification": []}"#, #"{"shortcut-item": {}}"#,
        #"{"user-activity": "x"}"#, #"{"user-activity": {"webpage-url": 1}}"#, #"{"source-application": 1}"#, #"{"url": null}"#,
        "[]", "5", "\"x\"", "{", "null",
    ])
    func invalidPayload(json: String) {
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try LaunchClassifier.classify(json) }?.name == "InvalidPayload", "\(json)")
    }

    @Test func resolvesEachKindWithItsSource() throws {
        let registry = try RoutingFixtures.examples()
        let app = "com.bestrecipes.App"
        let link = try registry.resolveLaunch(appID: app, optionsJSON: #"{"url":"bestrecipes://recipe/3"}"#)
        #expect(link.kind == .deepLink)
        #expect(link.resolution.resolvedRoute?.route == Route(target: "recipe", parameters: ["id": "3"], source: .url))
        let web = try registry.resolveLaunch(appID: app, optionsJSON: #"{"url":"https://bestrecipes.com/home"}"#)
        #expect(web.resolution.resolvedRoute?.route.source == .universalLink)
        let activity = try registry.resolveLaunch(appID: app, optionsJSON: #"{"user-activity":{"activity-type":"browsing-web","webpage-url":"https://bestrecipes.com/home"}}"#)
        #expect(activity.resolution.resolvedRoute?.route == Route(target: "home", source: .activity))
        let push = try registry.resolveLaunch(appID: app, optionsJSON: #"{"remote-notification":{"type":"recipe","id":"5"}}"#)
        #expect(push.kind == .notification)
        #expect(push.resolution.resolvedRoute?.route == Route(target: "recipe", parameters: ["id": "5"], source: .notification))
        let shortcut = try registry.resolveLaunch(appID: app, optionsJSON: #"{"shortcut-item":"com.bestrecipes.favorites"}"#)
        #expect(shortcut.resolution.resolvedRoute?.route.source == .shortcut)
        #expect(try registry.resolveLaunch(appID: app, optionsJSON: "").resolution == .nothing)
        #expect(try registry.resolveLaunch(appID: app, optionsJSON: #"{"x":1}"#) == LaunchResolution(kind: .unknown, resolution: .nothing))
        // Apartments enables restore-last-route.
        #expect(try registry.resolveLaunch(appID: "com.example.Apartments", optionsJSON: "{}") == LaunchResolution(kind: .appIcon, resolution: .restore))
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveLaunch(appID: "com.nope.App", optionsJSON: "") } == .unknownApp("com.nope.App"))
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveLaunch(appID: app, optionsJSON: #"{"shortcut-item":"zzz"}"#) }?.name == "UnknownShortcut")
    }
}
