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
    ] + (2..<8).map { BrowserDriver.Link("listing-\($0)", "https://apartments.test/listing/\($0)") }

    /// The extension's popup page in `browser`.
    static func popup(_ browser: BrowserDriver.Browser) -> String {
        (browser == .chromium ? "chrome-extension://\(BrowserHosts.chromiumExtensionID)" : "moz-extension://6d1c1f9e-2a43-4d8e-9f3b-0d5e6c7a8b91") + "/popup.html"
    }

    /// A daemon with the verdicts set, an active stand-in, the host installed for the browser
    /// (its wrapper running `exec` when given), and the browser with the extension's claims loaded
    /// (its popup listing `ready`, unless nil).
    static func withBrowser(
        _ browser: BrowserDriver.Browser, exec: String? = nil, ready: String? = "bestrecipes.test",
        _ body: (DaemonFixture, StandInApp, BrowserDriver) async throws -> Void
    ) async throws {
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
            let install = try await f.run(
                ["install-browser", "--browser", browser.rawValue] + (exec.map { ["--exec", $0] } ?? []), bus: false, environment: home)
            #expect(install.status == 0, "\(install.stderr)")
            let profile = browser == .chromium ? f.root + "/xdg-config/chromium" : f.root + "/firefox-profile"
            let driver = try await BrowserDriver(
                browser, links: links, userDataDir: profile, extensionID: BrowserHosts.chromiumExtensionID,
                environment: f.clientEnvironment(home))
            do {
                if let ready { try await driver.ready(listing: ready) }
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

    // MARK: One host, fresh verdicts, approval (SPEC §10)

    /// The verdict the daemon shows for `apartments.test`.
    static func apartmentsVerdict(_ f: DaemonFixture) async throws -> String {
        let proxy = try f.proxy()
        defer { proxy.connection.close() }
        return try await proxy.linkClaims().first { $0.domain == "apartments.test" }?.verdict ?? "absent"
    }

    /// A click on the `unverified` link (apartments.test) from other.test stays in the browser.
    static func staysInTheBrowser(_ driver: BrowserDriver) async throws {
        try await driver.get("https://other.test/start")
        try await driver.click("unverified")
        try await driver.waitForURL("https://apartments.test/listing/1")
    }

    /// A click on the link to `apartments.test/listing/N` reaches the Apartments app and the tab
    /// stays (each N once: the daemon would take the same link again within its dedupe window as
    /// the same invocation).
    static func reachesTheApp(_ n: Int, _ driver: BrowserDriver, _ apartments: StandInApp, _ f: DaemonFixture) async throws {
        try await driver.get("https://other.test/start")
        try await driver.click("listing-\(n)")
        let route: StandInApp.Received
        do {
            route = try await apartments.received.next()
        } catch {
            let state = try await driver.state()
            let history = try await f.history().map { "\($0.appID) \($0.target) \($0.status)" }
            throw DBusError.failed("the click did not reach the app (\(error)); the tab is on \(state.url); history \(history)")
        }
        #expect(route.target == "listing" && route.parameters == ["id": "\(n)"])
        let state = try await driver.state()
        #expect(state.url == "https://other.test/start")
        #expect(state.tabs == 1)
    }

    /// The extension was loaded before the verdict was recorded (as `deeplinker verify` records it):
    /// the next page's click is handed over, without Refresh and without waiting 10 minutes. And
    /// one host serves the whole session: the host's wrapper runs a `deeplinker` that notes each
    /// start, and after the popup, six page loads and five clicks it has started once.
    @Test(arguments: BrowserDriver.available)
    func aVerdictRecordedAfterTheExtensionLoadedCountsAtTheNextPage(browser: BrowserDriver.Browser) async throws {
        try await TemporaryDirectory.with { directory in
            let starts = directory.appending("starts")
            let counting = directory.appending("deeplinker")
            try "#!/bin/sh\necho \"$$\" >> '\(starts)'\nexec '\(TestProcess.product("deeplinker"))' \"$@\"\n".write(toFile: counting, atomically: true, encoding: .utf8)
            chmod(counting, 0o755)
            try await Self.withBrowser(browser, exec: counting) { f, _, driver in
                let apartments = try await f.activeStandIn("com.example.Apartments")
                try await Self.staysInTheBrowser(driver)
                try await f.call("SetDomainVerification", [.string("com.example.Apartments"), .string("apartments.test"), .string("verified"), .string("listed")])
                try await Self.reachesTheApp(2, driver, apartments, f)
                // Many clicks, one host: each reaches the app.
                for n in 3..<6 { try await Self.reachesTheApp(n, driver, apartments, f) }
                let started = try String(contentsOfFile: starts, encoding: .utf8).split(separator: "\n")
                #expect(started.count == 1, "the host started \(started.count) times")
            }
        }
    }

    /// SPEC §10 "Approved by the user", in the browser: not listed → stays; approve-domain → the
    /// app, the tab stays; verify keeps `approved`; revoke-domain → stays again.
    @Test(arguments: BrowserDriver.available)
    func aDomainTheUserApprovesIsHandedOverUntilRevoked(browser: BrowserDriver.Browser) async throws {
        try await Self.withBrowser(browser) { f, _, driver in
            let apartments = try await f.activeStandIn("com.example.Apartments")
            #expect(try await Self.apartmentsVerdict(f) == "not-listed")
            try await Self.staysInTheBrowser(driver)

            let approve = try await f.run(["approve-domain", "com.example.Apartments", "apartments.test"])
            #expect(approve.status == 0, "\(approve.output)")
            // The popup, opened next, shows the new verdict (it asks the host when it opens).
            try await driver.get(Self.popup(browser) + "?site=apartments.test")
            try await driver.wait(for: #"li[data-verdict="approved"] button[data-revoke="apartments.test"]"#)
            try await Self.reachesTheApp(2, driver, apartments, f)

            // verify does not replace the approval (the site still does not list the app).
            _ = try await f.run(["verify", "com.example.Apartments"])
            #expect(try await Self.apartmentsVerdict(f) == "approved")
            try await Self.reachesTheApp(3, driver, apartments, f)

            let revoke = try await f.run(["revoke-domain", "com.example.Apartments", "apartments.test"])
            #expect(revoke.status == 0, "\(revoke.output)")
            try await Self.staysInTheBrowser(driver)
            #expect(apartments.received.all.count == 2)
        }
    }

    /// Only the popup, after the user's own click, approves or revokes: a page that scripts the
    /// DOM and sends the extension's messages gets nothing approved, nor does a scripted click on
    /// the popup's button.
    @Test(arguments: BrowserDriver.available)
    func onlyTheUsersClickInThePopupApproves(browser: BrowserDriver.Browser) async throws {
        try await Self.withBrowser(browser) { f, _, driver in
            try await driver.get("https://other.test/start")
            let popup = Self.popup(browser)
            let attempts = try await driver.script("""
                return (async () => {
                const message = { type: "approve", app: "com.example.Apartments", domain: "apartments.test" };
                const tried = [];
                const runtime = globalThis.chrome?.runtime ?? globalThis.browser?.runtime;
                try { await runtime.sendMessage("\(BrowserHosts.chromiumExtensionID)", message); tried.push("sendMessage answered"); }
                catch (error) { tried.push("sendMessage: " + error); }
                window.postMessage(message, "*");
                document.dispatchEvent(new CustomEvent("approve", { detail: message }));
                const button = document.createElement("button");
                button.dataset.approve = "apartments.test";
                document.body.append(button);
                button.click();
                const frame = document.createElement("iframe");
                frame.src = "\(popup)?site=apartments.test";
                document.body.append(frame);
                await new Promise((resolve) => { frame.onload = resolve; frame.onerror = resolve; setTimeout(resolve, 2000); });
                try { frame.contentDocument.querySelector("button[data-approve]").click(); tried.push("clicked in the frame"); }
                catch (error) { tried.push("frame: " + error); }
                return tried;
                })();
                """)
            #expect(!attempts.contains("sendMessage answered") && !attempts.contains("clicked in the frame"), "\(attempts)")
            #expect(try await Self.apartmentsVerdict(f) == "not-listed")

            // The popup lists the site's claim with its verdict; a script's click does nothing.
            try await driver.get(popup + "?site=apartments.test")
            try await driver.wait(for: #"li[data-verdict="not-listed"] button[data-approve="apartments.test"]"#)
            try await driver.script(#"document.querySelector('button[data-approve="apartments.test"]').click(); return true;"#)
            try await driver.command(["cmd": "click", "selector": "#refresh"])
            try await driver.wait(for: #"li[data-verdict="not-listed"]"#)
            #expect(try await Self.apartmentsVerdict(f) == "not-listed")

            // The user's click approves; Revoke takes it back.
            try await driver.command(["cmd": "click", "selector": #"button[data-approve="apartments.test"]"#])
            try await driver.wait(for: #"li[data-verdict="approved"] button[data-revoke="apartments.test"]"#)
            let claims = try f.proxy()
            defer { claims.connection.close() }
            #expect(try await claims.linkClaims().first { $0.domain == "apartments.test" }.map { ($0.verdict, $0.detail) } ?? ("", "")
                == ("approved", "approved by the user in the browser"))
            try await driver.command(["cmd": "click", "selector": #"button[data-revoke="apartments.test"]"#])
            try await driver.wait(for: #"li[data-verdict="unchecked"]"#)
            #expect(try await Self.apartmentsVerdict(f) == "unchecked")
        }
    }

    /// A host whose wrapper starts a program that does not exist: the click stays in the browser,
    /// also when the extension still has claims stored from an earlier host, and the popup says why.
    @Test(arguments: BrowserDriver.available)
    func withoutAHostClicksStayInTheBrowser(browser: BrowserDriver.Browser) async throws {
        try await Self.withBrowser(browser, exec: "/nonexistent/deeplinker", ready: nil) { f, standIn, driver in
            let popup = Self.popup(browser)
            try await driver.get(popup)
            try await driver.wait(for: "#problem:not([hidden])")
            #expect(try await driver.text().contains("no-host"))
            try await driver.get("https://other.test/start")
            try await driver.click("verified")
            try await driver.waitForURL("https://bestrecipes.test/recipe/12")

            // Claims stored by an earlier host: the link is offered to the host, which is missing.
            try await driver.get(popup)
            try await driver.script("""
                const api = globalThis.browser ?? globalThis.chrome;
                return api.storage.local.set({ claims: [{ app: "\(Self.app)", name: "Best Recipes", domain: "bestrecipes.test", verdict: "verified", detail: "" }] }).then(() => true);
                """)
            try await driver.wait(for: #"input[data-domain="bestrecipes.test"]"#)
            try await driver.get("https://other.test/start")
            try await driver.click("verified")
            try await driver.waitForURL("https://bestrecipes.test/recipe/12")
            #expect(standIn.received.all.isEmpty)
            #expect(try await f.history(Self.app).isEmpty)
        }
    }
}
