import DBusKit
import DeeplinkerCLI
import DeeplinkerTestSupport
import Foundation
import Testing

/// The extension, the native host and the daemon together in headless Chromium and Firefox ESR
/// (SPEC §10): pages served over HTTPS on loopback, verdicts set with `SetDomainVerification`, an
/// active stand-in app receiving what the browser hands over.
@Suite(
    .serialized, .enabled(if: !BrowserDriver.available.isEmpty, "\(BrowserDriver.unavailableReason)"))
struct BrowserEndToEndTests {
    static let app = "com.bestrecipes.App"
    static let routeFiles = [
        app: """
            name = "Best Recipes"
            domains = ["bestrecipes.test", "*.bestrecipes.test"]
            launch = "none"
            [targets]
            home = {}
            recipe = { id = "int" }
            [[routes]]
            path = "/home"
            target = "home"
            [[routes]]
            path = "/recipe/:id"
            target = "recipe"
            """,
        "com.example.Apartments": """
            name = "Apartments"
            domains = ["apartments.test"]
            launch = "none"
            [targets]
            listing = { id = "int" }
            [[routes]]
            path = "/listing/:id"
            target = "listing"
            """,
    ]
    static let links = [
        BrowserDriver.Link("verified", "https://bestrecipes.test/recipe/12"),
        BrowserDriver.Link("subdomain", "https://www.bestrecipes.test/recipe/13"),
        BrowserDriver.Link("new-tab", "https://bestrecipes.test/recipe/15", target: "_blank"),
        BrowserDriver.Link("unverified", "https://apartments.test/listing/1"),
        BrowserDriver.Link("unclaimed", "https://unclaimed.test/page"),
        BrowserDriver.Link("same-site", "https://bestrecipes.test/recipe/14"),
        BrowserDriver.Link("modified", "https://bestrecipes.test/recipe/17"),
    ]

    /// A daemon with the verdicts set, an active stand-in, the host installed for Chromium, and
    /// Chromium with the extension's claims loaded.
    static func withBrowser(_ browser: BrowserDriver.Browser, _ body: (DaemonFixture, StandInApp, BrowserDriver) async throws -> Void) async throws {
        try await DaemonFixture.withDaemon(routeFiles: routeFiles) { f in
            for (app, domain, verdict) in [
                (app, "bestrecipes.test", "verified"), (app, "*.bestrecipes.test", "verified"),
                ("com.example.Apartments", "apartments.test", "not-listed"),
            ] {
                try await f.call("SetDomainVerification", [.string(app), .string(domain), .string(verdict), .string("set by the test")])
            }
            let standIn = try await f.activeStandIn(app)
            // Chromium's profile is where it looks for hosts; Firefox looks under $HOME.
            let home = ["HOME": f.root + "/home"]
            let install = try await f.run(["install-browser", "--browser", browser.rawValue], bus: false, environment: home)
            #expect(install.status == 0, "\(install.stderr)")
            let profile = browser == .chromium ? f.root + "/xdg-config/chromium" : f.root + "/firefox-profile"
            let driver = try await BrowserDriver(
                browser, links: links, userDataDir: profile, extensionID: BrowserHosts.chromiumExtensionID,
                environment: f.clientEnvironment(home))
            do {
                try await driver.ready(listing: "bestrecipes.test")
                try await body(f, standIn, driver)
                await driver.quit()
            } catch {
                await driver.quit()
                throw error
            }
        }
    }

    @Test(arguments: BrowserDriver.available)
    func aClickOnAVerifiedLinkFromAnotherSiteOpensTheAppAndTheTabStays(browser: BrowserDriver.Browser) async throws {
        try await Self.withBrowser(browser) { f, standIn, driver in
            try await driver.get("https://other.test/start")
            try await driver.click("verified")
            let route = try await standIn.received.next()
            #expect(route.target == "recipe")
            #expect(route.parameters == ["id": "12"])
            #expect(route.source == "universal-link")
            #expect(route.platformData["deeplinker.url"]?.stringValue == "https://bestrecipes.test/recipe/12")

            // A verified *.x claim covers www.x; a link meant for a new tab opens none.
            try await driver.click("subdomain")
            #expect(try await standIn.received.next().parameters == ["id": "13"])
            try await driver.click("new-tab")
            #expect(try await standIn.received.next().parameters == ["id": "15"])

            let state = try await driver.state()
            #expect(state.url == "https://other.test/start")
            #expect(state.tabs == 1)
            #expect(!state.requests.contains { $0.hasPrefix("bestrecipes.test/") || $0.hasPrefix("www.bestrecipes.test/") }, "\(state.requests)")
            let history = try await f.history(Self.app)
            #expect(history.map(\.source) == ["universal-link", "universal-link", "universal-link"])
        }
    }

    @Test(arguments: BrowserDriver.available)
    func otherLinksLoadInTheBrowser(browser: BrowserDriver.Browser) async throws {
        try await Self.withBrowser(browser) { f, standIn, driver in
            // Claimed but not verified.
            try await driver.get("https://other.test/start")
            try await driver.click("unverified")
            try await driver.waitForURL("https://apartments.test/listing/1")
            // Claimed by nobody.
            try await driver.get("https://other.test/start")
            try await driver.click("unclaimed")
            try await driver.waitForURL("https://unclaimed.test/page")
            // Within the app's own site.
            try await driver.get("https://bestrecipes.test/home")
            try await driver.click("same-site")
            try await driver.waitForURL("https://bestrecipes.test/recipe/14")
            try await driver.get("https://www.bestrecipes.test/home")
            try await driver.click("verified")
            try await driver.waitForURL("https://bestrecipes.test/recipe/12")
            // Typed into the address bar.
            try await driver.get("https://bestrecipes.test/recipe/16")
            // A modifier click (a new tab in the background).
            try await driver.get("https://other.test/start")
            try await driver.click("modified", modifier: "ctrl")
            try await driver.waitForRequest("bestrecipes.test/recipe/17")

            // A verified link clicked last reaches the app: everything before it stayed in the browser.
            try await driver.click("verified")
            let route = try await standIn.received.next()
            #expect(route.parameters == ["id": "12"])
            #expect(standIn.received.all.count == 1)
            let state = try await driver.state()
            #expect(state.url == "https://other.test/start")
            for page in ["apartments.test/listing/1", "unclaimed.test/page", "bestrecipes.test/recipe/14", "bestrecipes.test/recipe/16"] {
                #expect(state.requests.contains(page), "\(page) was not loaded: \(state.requests)")
            }
            #expect(try await f.history("com.example.Apartments").isEmpty)

            // A site kept in the browser from the popup stays there.
            try await driver.keepInBrowser("bestrecipes.test")
            try await driver.get("https://other.test/start")
            try await driver.click("verified")
            try await driver.waitForURL("https://bestrecipes.test/recipe/12")
            #expect(standIn.received.all.count == 1)
        }
    }
}
