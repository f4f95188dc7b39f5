import Testing
@testable import DeeplinkerCore

/// Resolving URLs for an app: domains, captures, query items, typed parameters, exclude, fallback.
struct URLRoutingTests {
    static let file = """
        schemes = ["shop"]
        domains = ["shop.example", "*.shop.example", "bücher.example"]

        [targets]
        home = {}
        item = { id = "int", color = "string?", gift = "bool?", ref = "uuid?" }
        file = { path = "string", mode = "string?" }
        search = { q = "string?" }

        [[routes]]
        path = "/"
        target = "home"

        [[routes]]
        path = "/item/:id"
        target = "item"
        params = { color = "red" }

        [[routes]]
        path = "/item"
        target = "item"

        [[routes]]
        path = "/files/*path"
        target = "file"

        [[routes]]
        path = "/search"
        target = "search"

        [[routes]]
        path = "/files/secret/*rest"
        exclude = true
        """

    let registry: AppRegistry
    init() throws { registry = try RoutingFixtures.registry(Self.file) }

    func resolve(_ url: String) throws -> ResolvedRoute { try registry.resolveURL(appID: "com.example.Test", url: url) }
    func failure(_ url: String, app: String = "com.example.Test") -> DeeplinkerError? {
        RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveURL(appID: app, url: url) }
    }

    @Test func domainsExactWildcardCaseAndIDN() throws {
        #expect(try resolve("https://shop.example/item/1").route.source == .universalLink)
        #expect(try resolve("https://deep.sub.shop.example/item/1").route.target == "item")
        #expect(try resolve("https://SHOP.Example/item/1").route.target == "item")
        #expect(try resolve("https://bücher.example/").route.target == "home")
        #expect(try resolve("https://xn--bcher-kva.example/").route.target == "home")
        #expect(failure("https://evilshop.example/item/1")?.name == "NoRoute")
        #expect(failure("https://shop.example.evil/item/1")?.name == "NoRoute")
        #expect(failure("http://shop.example/item/1")?.name == "NoRoute")
        #expect(failure("https://shop.example:8443/item/1")?.name == "NoRoute")
        #expect(failure("other://item/1")?.name == "NoRoute")
    }

    @Test func wildcardDoesNotMatchItsBase() throws {
        let r = try RoutingFixtures.registry("domains = [\"*.x.example\"]\n[targets]\nhome = {}\n[[routes]]\npath = \"/\"\ntarget = \"home\"")
        #expect(try r.resolveURL(appID: "com.example.Test", url: "https://a.x.example/").route.target == "home")
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try r.resolveURL(appID: "com.example.Test", url: "https://x.example/") }?.name == "NoRoute")
    }

    @Test func bareURLAndTrailingSlash() throws {
        #expect(try resolve("https://shop.example").route.target == "home")
        #expect(try resolve("https://shop.example/").route.target == "home")
        #expect(try resolve("shop://item/5/").route.parameters["id"] == "5")
        #expect(try resolve("shop:///item/5").route.parameters["id"] == "5")
    }

    @Test func capturesAndFixedParamsWinOverQuery() throws {
        let r = try resolve("shop://item/5?id=6&color=blue&gift=1")
        #expect(r.route.parameters == ["id": "5", "color": "red", "gift": "true"])
        #expect(r.routePattern == "/item/:id")
        #expect(r.route.source == .url)
    }

    @Test func firstRepeatedQueryKeyWinsAndUndeclaredDropped() throws {
        let r = try resolve("shop://item?id=007&id=8&unknown=1&ref=0E9A2C1B-5F3D-4A6B-8C7D-1E2F3A4B5C6D#id=9")
        #expect(r.route.parameters == ["id": "7", "ref": "0e9a2c1b-5f3d-4a6b-8c7d-1e2f3a4b5c6d"])
    }

    @Test func plusStaysPlusAndEncodedSlashStaysInOneValue() throws {
        #expect(try resolve("shop://search?q=a+b%20c").route.parameters == ["q": "a+b c"])
        #expect(try resolve("shop://files/a%2Fb").route.parameters == ["path": "a/b"])
        #expect(try resolve("shop://files/a/b/c.txt").route.parameters == ["path": "a/b/c.txt"])
    }

    @Test func typedParameterErrorsNameTheParameter() {
        #expect(failure("shop://item/abc") == .invalidParameter(name: "id", value: "abc", reason: "not a valid int"))
        #expect(failure("shop://item") == .invalidParameter(name: "id", value: nil, reason: "missing required int parameter of target 'item'"))
        #expect(failure("shop://item/1?gift=yes") == .invalidParameter(name: "gift", value: "yes", reason: "not a valid bool"))
        #expect(failure("shop://item/1?ref=nope")?.name == "InvalidParameter")
    }

    @Test func excludeRefusesEvenWhenAnotherRouteFits() {
        let error = failure("shop://files/secret/key")
        #expect(error?.name == "NoRoute")
        #expect(error?.message.contains("/files/secret/*rest") == true)
    }

    @Test func unmatchedIsNoRouteWithoutFallback() {
        #expect(failure("shop://nothing/here")?.name == "NoRoute")
    }

    @Test func fallbackTargetGetsURL() throws {
        let r = try RoutingFixtures.registry("""
            schemes = ["x"]
            fallback-target = "web"
            [targets]
            web = { url = "string", other = "int?" }
            """)
        let resolved = try r.resolveURL(appID: "com.example.Test", url: "x://anything/at/all?other=1")
        #expect(resolved.route == Route(target: "web", parameters: ["url": "x://anything/at/all?other=1"], source: .url))
        #expect(resolved.routePattern == "(fallback)")
        // Not for URLs the app does not claim.
        #expect(RoutingFixtures.error { () throws(DeeplinkerError) in try r.resolveURL(appID: "com.example.Test", url: "y://a") }?.name == "NoRoute")
    }

    @Test func invalidURLBeforeRouting() {
        #expect(failure("shop://item/%2e%2e")?.name == "InvalidURL")
        #expect(failure("shop:item/1")?.name == "InvalidURL")
    }

    @Test func unknownApp() {
        #expect(failure("shop://item/1", app: "com.example.Missing") == .unknownApp("com.example.Missing"))
    }
}
