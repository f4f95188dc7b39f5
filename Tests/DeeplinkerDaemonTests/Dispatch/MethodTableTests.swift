import DBusKit
import DeeplinkerCore
import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// Every method of the table, called in process through the one dispatcher with no bus: its
/// reply, bad arguments and each refusal (SPEC §3, §4).
@Suite("Method table in process")
struct MethodTableTests {
    static let recipes = TestRouteFiles.recipes
    static let apartments = TestRouteFiles.apartments
    static let error = "org.deeplinker.Error."
    static let big = String(repeating: "x", count: Limits.stringArgumentBytes + 1)

    static func shipped(_ body: (InProcessDaemon) async throws -> Void) async throws {
        try await InProcessDaemon.withDaemon(shipped: [recipes, apartments]) { try await body($0) }
    }

    struct Call: Sendable, CustomStringConvertible {
        let method: String
        let arguments: [DBusValue]
        var description: String { method }
        init(_ method: String, _ arguments: [DBusValue]) {
            self.method = method
            self.arguments = arguments
        }
    }

    /// One well-formed call of every method, for the given app.
    static func everyMethod(_ app: String) -> [Call] {
        [
            Call("OpenURL", [.string(app), .string("bestrecipes://recipe/12")]),
            Call("ActivateNotification", [.string(app), .string(#"{"type": "recipe", "id": "7"}"#), .string("default")]),
            Call("PerformShortcut", [.string(app), .string("com.bestrecipes.favorites")]),
            Call("ContinueActivity", [.string(app), .string("browsing-web"), .string("https://bestrecipes.com/search?q=pie")]),
            Call("Launch", [.string(app), .string(#"{"url": "bestrecipes://home"}"#)]),
            Call("Invoke", [.string(app), .string("url"), .string("bestrecipes://recipe/3"), .variantDictionary([:])]),
            Call("GetPending", [.string(app)]),
            Call("DiscardPending", [.string(app)]),
            Call("ResolveURL", [.string(app), .string("bestrecipes://recipe/5")]),
            Call("GetAppState", [.string(app)]),
            Call("SetAppState", [.string(app), .string("active")]),
            Call("ListApps", []),
            Call("GetHistory", [.string(app), .uint32(0)]),
            Call("GetInvocation", [.string("0f8c2a8e-5c1e-4a53-9d0e-3f7e2b1c9a10")]),
            Call("SetShortcuts", [.string(app), .strings(["com.bestrecipes.search"])]),
            Call("PostNotification", [.string(app), .string("Dinner"), .string("Pie is ready"), .string(#"{"type": "home"}"#)]),
            Call("Reload", []),
            Call("SetFocusedApp", [.string(app)]),
            Call("GetLinkClaims", []),
            Call("SetDomainVerification", [.string(app), .string("bestrecipes.com"), .string("verified"), .string("")]),
        ]
    }

    @Test("the table has one entry per method of SPEC §3, and each is tested here")
    func tableCoversTheAPI() {
        #expect(DeeplinkerAPI.methods.map(\.name) == Self.everyMethod(Self.recipes).map(\.method))
    }

    @Test("every method replies with values of its declared out signature")
    func replies() async throws {
        try await Self.shipped { (d: InProcessDaemon) async throws in
            let route = try await d.reply("OpenURL", [.string(Self.recipes), .string("bestrecipes://recipe/12")])
            #expect(route.count == 3 && route[1] == .string("recipe") && route[2].stringDictionaryValue == ["id": "12"])
            let click = try await d.reply("ActivateNotification", [.string(Self.recipes), .string(#"{"type": "recipe", "id": "7"}"#), .string("default")])
            #expect(click[1] == .string("recipe") && click[2].stringDictionaryValue == ["id": "7"])
            let shortcut = try await d.reply("PerformShortcut", [.string(Self.recipes), .string("com.bestrecipes.favorites")])
            #expect(shortcut[1] == .string("home") && shortcut[2].stringDictionaryValue == ["tab": "favorites"])
            let activity = try await d.reply("ContinueActivity", [.string(Self.recipes), .string("browsing-web"), .string("https://bestrecipes.com/search?q=pie")])
            #expect(activity[1] == .string("search") && activity[2].stringDictionaryValue == ["q": "pie"])
            let launch = try await d.reply("Launch", [.string(Self.recipes), .string(#"{"url": "bestrecipes://home"}"#)])
            #expect(launch.count == 4 && launch[0] == .string("deep-link") && launch[2] == .string("home"))
            let invoked = try await d.reply("Invoke", [.string(Self.recipes), .string("url"), .string("bestrecipes://recipe/3"), .variantDictionary([:])])
            #expect(invoked[1] == .string("recipe") && invoked[2].stringDictionaryValue == ["id": "3"])
            let pending = try await d.reply("GetPending", [.string(Self.recipes)])
            #expect(pending.count == 6 && pending[0] == .boolean(true) && pending[1] == invoked[0] && pending[3] == .string("recipe"))
            #expect(try await d.reply("DiscardPending", [.string(Self.recipes)]) == [.boolean(true)])
            #expect(try await d.reply("DiscardPending", [.string(Self.recipes)]) == [.boolean(false)])
            let resolved = try await d.reply("ResolveURL", [.string(""), .string("https://bestrecipes.com/recipe/5")])
            #expect(resolved == [.string(Self.recipes), .string("recipe"), .stringDictionary(["id": "5"]), .string("/recipe/:id")])
            #expect(try await d.reply("GetAppState", [.string(Self.recipes)]) == [.string("not-running")])
            #expect(try await d.reply("ListApps", []) == [.strings([Self.recipes, Self.apartments].sorted())])
            let history = try await d.reply("GetHistory", [.string(Self.recipes), .uint32(2)])
            #expect(history.first?.arrayElements?.count == 2)
            #expect(try await d.reply("SetShortcuts", [.string(Self.recipes), .strings(["com.bestrecipes.search"])]) == [])
            #expect(try await d.reply("Reload", []) == [])
            #expect(try await d.reply("SetFocusedApp", [.string(Self.recipes)]) == [])
            #expect(try await d.reply("SetFocusedApp", [.string("")]) == [])
            #expect(try await d.reply("SetDomainVerification", [.string(Self.recipes), .string("bestrecipes.com"), .string("verified"), .string("")]) == [])
            let claims = try await d.reply("GetLinkClaims", [])[0].arrayElements?.compactMap(\.structureFields) ?? []
            #expect(claims.map { $0[1] } == [.string("bestrecipes.com"), .string("*.bestrecipes.com")])
            #expect(claims.first?[2] == .string("verified") && claims.first.map { $0[4] != .int64(0) } == true)
            #expect(claims.last?[2] == .string("unchecked") && claims.last?[4] == .int64(0))
        }
    }

    @Test("SetAppState replies () for a lifecycle-senders = \"any\" app")
    func setAppStateReply() async throws {
        try await InProcessDaemon.withDaemon(routeFiles: ["org.example.Any": TestRouteFiles.minimal(scheme: "any", ["lifecycle-senders": "\"any\""])]) { (d: InProcessDaemon) async throws in
            #expect(try await d.reply("SetAppState", [.string("org.example.Any"), .string("active")]) == [])
            #expect(try await d.reply("GetAppState", [.string("org.example.Any")]) == [.string("active")])
        }
    }

    @Test("a wrong signature is InvalidArgs naming both signatures, for every method", arguments: everyMethod(recipes))
    func wrongSignature(_ call: Call) async throws {
        try await Self.shipped { (d: InProcessDaemon) async throws in
            let error = try await d.error(call.method, call.arguments + [.int32(1)])
            #expect(error.name == DBusError.invalidArgsName)
            #expect(error.message.contains(call.method) && error.message.contains("i'"))
        }
    }

    @Test("an oversized string argument is TooLarge naming the argument, for every method taking one",
        arguments: everyMethod(recipes).filter { !$0.arguments.isEmpty })
    func oversized(_ call: Call) async throws {
        try await Self.shipped { (d: InProcessDaemon) async throws in
            var arguments = call.arguments
            let index = arguments.lastIndex { $0.stringValue != nil || $0.stringArray != nil }!
            arguments[index] = arguments[index].stringValue != nil ? .string(Self.big) : .strings([Self.big])
            let error = try await d.error(call.method, arguments)
            #expect(error.name == Self.error + "TooLarge")
            #expect(error.message.contains("argument '") && error.message.contains("\(Self.big.utf8.count)"))
        }
    }

    @Test("every app-scoped method refuses an unknown app with UnknownApp naming it",
        arguments: everyMethod("com.example.Unknown").filter { !["ListApps", "Reload", "SetFocusedApp", "GetLinkClaims", "GetInvocation"].contains($0.method) })
    func unknownApp(_ call: Call) async throws {
        try await Self.shipped { (d: InProcessDaemon) async throws in
            let error = try await d.error(call.method, call.arguments)
            #expect(error.name == Self.error + "UnknownApp")
            #expect(error.message.contains("com.example.Unknown"))
        }
    }

    @Test("each refusal of SPEC §4 the methods can give is named, and a refused invocation is recorded")
    func refusals() async throws {
        try await InProcessDaemon.withDaemon(routeFiles: [
            "org.example.One": TestRouteFiles.minimal(scheme: "shared"), "org.example.Two": TestRouteFiles.minimal(scheme: "shared"),
        ], shipped: [Self.recipes, Self.apartments]) { (d: InProcessDaemon) async throws in
            let r = Self.recipes
            let cases: [(String, [DBusValue], String, String)] = [
                ("OpenURL", [.string(""), .string("nobody://x")], "NoApp", "nobody://x"),
                ("OpenURL", [.string(""), .string("shared://home")], "AmbiguousApp", "org.example.One"),
                ("OpenURL", [.string(r), .string("bestrecipes://recipe/../x")], "InvalidURL", "bestrecipes://recipe/../x"),
                ("OpenURL", [.string(r), .string("bestrecipes://admin/users")], "NoRoute", "admin"),
                ("OpenURL", [.string(r), .string("bestrecipes://recipe/abc")], "InvalidParameter", "abc"),
                ("ActivateNotification", [.string(r), .string("{broken"), .string("default")], "InvalidPayload", "payload"),
                ("PerformShortcut", [.string(r), .string("com.bestrecipes.nope")], "UnknownShortcut", "com.bestrecipes.nope"),
                ("ContinueActivity", [.string(r), .string("reading"), .string("")], "Unsupported", "reading"),
                ("Launch", [.string(r), .string(#"{"url": 5}"#)], "InvalidPayload", "url"),
                ("Invoke", [.string(r), .string("url"), .string("bestrecipes://home"), .variantDictionary(["activation-token": .int32(1)])],
                    "InvalidParameter", "platform_data.activation-token"),
                ("SetAppState", [.string(r), .string("active")], "AccessDenied", r),
                ("SetAppState", [.string(r), .string("asleep")], "InvalidParameter", "asleep"),
                ("SetFocusedApp", [.string("not an app id")], "InvalidParameter", "not an app id"),
                ("SetDomainVerification", [.string(r), .string("bestrecipes.com"), .string("maybe"), .string("")], "InvalidParameter", "maybe"),
                ("SetDomainVerification", [.string(r), .string("evil.example"), .string("verified"), .string("")], "InvalidParameter", "evil.example"),
                ("SetShortcuts", [.string(r), .strings(["com.bestrecipes.nope"])], "UnknownShortcut", "com.bestrecipes.nope"),
                ("PostNotification", [.string(r), .string("s"), .string("b"), .string("{broken")], "InvalidPayload", "payload"),
                ("PostNotification", [.string(r), .string("s"), .string("b"), .string(#"{"type": "home"}"#)], "Unsupported", "notification server"),
            ]
            for (method, arguments, name, names) in cases {
                let error = try await d.error(method, arguments)
                #expect(error.name == Self.error + name, "\(method) \(arguments)")
                #expect(error.message.contains(names), "\(method): \(error.message)")
            }
            // Published shortcuts only: an unpublished one is ShortcutUnavailable.
            _ = try await d.reply("SetShortcuts", [.string(r), .strings(["com.bestrecipes.search"])])
            let unavailable = try await d.error("PerformShortcut", [.string(r), .string("com.bestrecipes.favorites")])
            #expect(unavailable.name == Self.error + "ShortcutUnavailable")
            // The refused invocations of a configured app are in its history as `rejected`.
            let rows = try await d.reply("GetHistory", [.string(r), .uint32(0)])[0].arrayElements ?? []
            let statuses = rows.compactMap { $0.structureFields?[4].stringValue }
            #expect(statuses.filter { $0 == "rejected" }.count >= 7)
        }
    }

    @Test("a refused invocation's error is sent only once its record is stored, after its InvocationChanged")
    func refusalAfterSignal() async throws {
        try await Self.shipped { (d: InProcessDaemon) async throws in
            let error = try await d.error("OpenURL", [.string(Self.recipes), .string("bestrecipes://admin/x")])
            #expect(error.name == Self.error + "NoRoute")
            let signals = d.sent.all.filter { $0.member == "InvocationChanged" }
            #expect(signals.contains { (try? $0.arguments())?[2] == .string("rejected") })
        }
    }
}
