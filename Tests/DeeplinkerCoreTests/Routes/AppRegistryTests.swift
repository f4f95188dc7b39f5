import Testing
@testable import DeeplinkerCore

/// Finding the app for a URL, listing and replacing apps, and route explanations.
struct AppRegistryTests {
    func app(_ id: String, _ header: String) throws -> AppConfig {
        try RoutingFixtures.parse(header + "\n[targets]\nhome = {}\n[[routes]]\npath = \"/\"\ntarget = \"home\"", appID: id)
    }

    @Test func findsAppByURL() throws {
        let registry = AppRegistry([
            try app("com.a.App", "schemes = [\"a\"]\ndomains = [\"a.example\"]"),
            try app("com.b.App", "schemes = [\"b\"]\ndomains = [\"*.shared.example\"]"),
            try app("com.c.App", "domains = [\"x.shared.example\"]"),
        ])
        #expect(try registry.resolveURL(appID: "", url: "A://").appID == "com.a.App")
        #expect(try registry.resolveURL(appID: "", url: "https://a.example").appID == "com.a.App")
        #expect(try registry.resolveURL(appID: "", url: "https://y.shared.example").appID == "com.b.App")
        let none = RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveURL(appID: "", url: "zzz://x") }
        #expect(none == .noApp(url: "zzz://x"))
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveURL(appID: "", url: "https://shared.example") }?.name == "NoApp")
        let ambiguous = RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveURL(appID: "", url: "https://x.shared.example/") }
        #expect(ambiguous == .ambiguousApp(url: "https://x.shared.example/", candidates: ["com.b.App", "com.c.App"]))
    }

    @Test func setAndRemove() throws {
        var registry = AppRegistry([try app("com.a.App", "schemes = [\"a\"]")])
        #expect(registry.appIDs == ["com.a.App"])
        registry.set(try app("com.b.App", "schemes = [\"a\"]"))
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveURL(appID: "", url: "a://") }?.name == "AmbiguousApp")
        registry.remove("com.a.App")
        #expect(try registry.resolveURL(appID: "", url: "a://").appID == "com.b.App")
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try registry.config("com.a.App") } == .unknownApp("com.a.App"))
    }

    @Test func explainListsEveryRouteWithItsVerdict() throws {
        let registry = try RoutingFixtures.examples()
        let e = registry.explainURL(appID: "", url: "https://bestrecipes.com/recipe/12")
        #expect(e.appID == "com.bestrecipes.App")
        #expect(e.segments == ["recipe", "12"])
        #expect(e.claimProblem == nil)
        #expect(try e.result.get().route.parameters == ["id": "12"])
        #expect(e.candidates.count == 6)
        #expect(e.candidates.first { $0.pattern == "/recipe/:id" }?.verdict == .selected)
        #expect(e.candidates.first { $0.pattern == "/recipe" }?.verdict == .noFit("the URL path has 2 segments, the pattern 1"))
        #expect(e.candidates.first { $0.pattern == "/home" }?.verdict == .noFit("segment 1 is 'recipe', not 'home'"))
        #expect(e.candidates.first { $0.pattern == "/admin/*rest" }?.verdict == .noFit("segment 1 is 'recipe', not 'admin'"))
        #expect(e.lines.contains { $0.contains("✓ /recipe/:id") })
    }

    @Test func explainShowsOutrankedAndClaimProblems() throws {
        let registry = try RoutingFixtures.registry("""
            schemes = ["x"]
            [targets]
            a = { v = "string" }
            [[routes]]
            path = "/:v"
            target = "a"
            [[routes]]
            path = "/lit"
            target = "a"
            params = { v = "fixed" }
            """)
        let e = registry.explainURL(appID: "com.example.Test", url: "x://lit")
        #expect(e.candidates.map(\.verdict) == [.selected, .outranked(by: "/lit")])
        let other = registry.explainURL(appID: "com.example.Test", url: "y://lit")
        #expect(other.claimProblem?.contains("does not claim scheme 'y'") == true)
        let invalid = registry.explainURL(appID: "com.example.Test", url: "x://%00")
        #expect(invalid.candidates.isEmpty)
        #expect((try? invalid.result.get()) == nil)
    }

    @Test func appIDRules() {
        #expect(AppID.isValid("com.bestrecipes.App"))
        #expect(AppID.isValid("org.example.my-app_2"))
        for bad in ["App", "com..App", "com.1App", ".com.App", "com.App.", "com.A pp", ""] { #expect(!AppID.isValid(bad)) }
    }
}
