import DBusKit
import DeeplinkerCore
import DeeplinkerDaemon
import DeeplinkerTestSupport
import Testing

/// The access column of the method table (SPEC §3 "Callers") and the rate limit, in process:
/// the caller is given, as the bus lookup would find it.
@Suite("Access table in process")
struct AccessTableTests {
    typealias Call = MethodTableTests.Call
    static let recipes = TestRouteFiles.recipes
    static let apartments = TestRouteFiles.apartments
    static let own = Caller.sandboxed(appID: apartments)

    /// The methods a sandboxed app may call only for its own app id.
    static let ownAppOnly: Set<String> = [
        "ActivateNotification", "PerformShortcut", "Launch", "GetPending", "DiscardPending", "GetAppState", "SetAppState",
        "SetShortcuts", "PostNotification", "GetHistory",
    ]

    @Test("a sandboxed app is refused every own-app method for another app, with the method and both ids named",
        arguments: MethodTableTests.everyMethod(recipes).filter { ownAppOnly.contains($0.method) })
    func otherAppRefused(_ call: Call) async throws {
        try await MethodTableTests.shipped { (d: InProcessDaemon) async throws in
            let error = try await d.error(call.method, call.arguments, as: Self.own)
            #expect(error.name == "org.deeplinker.Error.AccessDenied")
            #expect(error.message.contains(call.method) && error.message.contains(Self.apartments) && error.message.contains(Self.recipes))
            // The same call from a host process is not refused for access.
            if case .failure(let hostError) = await d.call(call.method, call.arguments) {
                #expect(hostError.name != "org.deeplinker.Error.AccessDenied" || call.method == "SetAppState")
            }
        }
    }

    @Test("the same methods for its own app pass the access check",
        arguments: MethodTableTests.everyMethod(apartments).filter { ownAppOnly.contains($0.method) })
    func ownAppAllowed(_ call: Call) async throws {
        try await MethodTableTests.shipped { (d: InProcessDaemon) async throws in
            if case .failure(let error) = await d.call(call.method, call.arguments, as: Self.own) {
                // SetAppState keeps its own sender rule (the name owner), named differently.
                #expect(error.name != "org.deeplinker.Error.AccessDenied" || !error.message.contains("sandboxed"), "\(error)")
            }
        }
    }

    @Test("open methods: a sandboxed app may open links, continue activities and resolve URLs for any app")
    func openMethods() async throws {
        try await MethodTableTests.shipped { (d: InProcessDaemon) async throws in
            let unidentified = Caller.sandboxed(appID: nil)
            for caller in [Self.own, unidentified] {
                let opened = try await d.reply("OpenURL", [.string(""), .string("bestrecipes://recipe/1")], as: caller)
                #expect(opened[1] == .string("recipe"))
                _ = try await d.reply("ContinueActivity", [.string(Self.recipes), .string("browsing-web"), .string("https://bestrecipes.com/")], as: caller)
                _ = try await d.reply("ResolveURL", [.string(Self.recipes), .string("bestrecipes://home")], as: caller)
                _ = try await d.reply("Invoke", [.string(Self.recipes), .string("url"), .string("bestrecipes://home"), .variantDictionary([:])], as: caller)
                let invokeOther = try await d.error(
                    "Invoke", [.string(Self.recipes), .string("shortcut"), .string("com.bestrecipes.favorites"), .variantDictionary([:])], as: caller)
                #expect(invokeOther.name == "org.deeplinker.Error.AccessDenied" && invokeOther.message.contains("Invoke"))
            }
        }
    }

    @Test("ListApps and GetHistory(\"\") show a sandboxed app only its own app; an unidentified one nothing")
    func filtered() async throws {
        try await MethodTableTests.shipped { (d: InProcessDaemon) async throws in
            _ = try await d.reply("OpenURL", [.string(Self.recipes), .string("bestrecipes://home")])
            _ = try await d.reply("OpenURL", [.string(Self.apartments), .string("deeplinkTutorial://request/r-1")])
            #expect(try await d.reply("ListApps", [], as: Self.own) == [.strings([Self.apartments])])
            #expect(try await d.reply("ListApps", [], as: .sandboxed(appID: nil)) == [.strings([])])
            let all = try await d.reply("GetHistory", [.string(""), .uint32(0)])[0].arrayElements ?? []
            let mine = try await d.reply("GetHistory", [.string(""), .uint32(0)], as: Self.own)[0].arrayElements ?? []
            let none = try await d.reply("GetHistory", [.string(""), .uint32(0)], as: .sandboxed(appID: nil))[0].arrayElements ?? []
            #expect(all.count == 2 && none.isEmpty)
            #expect(mine.count == 1 && mine[0].structureFields?[1] == .string(Self.apartments))
        }
    }

    @Test("Reload and SetFocusedApp are for host processes only", arguments: [own, Caller.sandboxed(appID: nil)])
    func hostOnly(_ caller: Caller) async throws {
        try await MethodTableTests.shipped { (d: InProcessDaemon) async throws in
            let error = try await d.error("Reload", [], as: caller)
            #expect(error.name == "org.deeplinker.Error.AccessDenied" && error.message.contains("Reload") && error.message.contains("host"))
            #expect(try await d.reply("Reload", []) == [])
            // Not even for the caller's own app: a sandboxed app could claim the focus for itself.
            for app in [Self.apartments, Self.recipes, ""] {
                let focus = try await d.error("SetFocusedApp", [.string(app)], as: caller)
                #expect(focus.name == "org.deeplinker.Error.AccessDenied" && focus.message.contains("SetFocusedApp") && focus.message.contains("host"))
            }
            #expect(try await d.reply("SetFocusedApp", [.string(Self.apartments)]) == [])
        }
    }

    @Test("SetDomainVerification is for host processes only; GetLinkClaims answers everyone", arguments: [own, Caller.sandboxed(appID: nil)])
    func domainVerification(_ caller: Caller) async throws {
        try await MethodTableTests.shipped { (d: InProcessDaemon) async throws in
            let verdict: [DBusValue] = [.string(Self.recipes), .string("bestrecipes.com"), .string("verified"), .string("")]
            let error = try await d.error("SetDomainVerification", verdict, as: caller)
            #expect(error.name == "org.deeplinker.Error.AccessDenied" && error.message.contains("SetDomainVerification") && error.message.contains("host"))
            #expect(try await d.reply("SetDomainVerification", verdict) == [])
            // The claims are public (the association files are): a sandboxed app sees them all.
            let claims = try await d.reply("GetLinkClaims", [], as: caller)
            #expect(claims == (try await d.reply("GetLinkClaims", [])))
            #expect(claims[0].arrayElements?.first?.structureFields?[2] == .string("verified"))
        }
    }

    @Test("a sandboxed connection gets 100 invocations in a second; the rest are RateLimited until a second has passed")
    func rateLimit() async throws {
        let clock = TestClock()
        try await InProcessDaemon.withDaemon(shipped: [Self.recipes, Self.apartments], clock: clock) { (d: InProcessDaemon) async throws in
            let open: [DBusValue] = [.string(Self.recipes), .string("bestrecipes://recipe/1")]
            for i in 0..<100 {
                _ = try await d.reply("OpenURL", [.string(Self.recipes), .string("bestrecipes://recipe/\(i)")], as: Self.own, sender: ":1.50")
            }
            let limited = try await d.error("OpenURL", open, as: Self.own, sender: ":1.50")
            #expect(limited.name == "org.deeplinker.Error.RateLimited" && limited.message.contains(":1.50"))
            // Other connections and host processes are not affected.
            _ = try await d.reply("OpenURL", open, as: Self.own, sender: ":1.51")
            for _ in 0..<300 { _ = try await d.reply("GetAppState", [.string(Self.recipes)], as: .host, sender: ":1.52") }
            for i in 0..<300 { _ = try await d.reply("OpenURL", [.string(Self.recipes), .string("bestrecipes://recipe/\(1000 + i)")], sender: ":1.52") }
            clock.advance(.milliseconds(999))
            #expect(try await d.error("OpenURL", open, as: Self.own, sender: ":1.50").name == "org.deeplinker.Error.RateLimited")
            clock.advance(.milliseconds(1))
            _ = try await d.reply("OpenURL", open, as: Self.own, sender: ":1.50")
        }
    }
}
