import DBusKit
import DeeplinkerCore
import DeeplinkerDaemon
import DeeplinkerTestSupport
import Testing

/// `GetInvocation` (SPEC §3): one retained invocation as `a{sv}` with its `detail`, the access
/// rule of the "Callers" table, and `UnknownInvocation` for an id the daemon does not keep.
@Suite("GetInvocation in process")
struct GetInvocationTests {
    static let recipes = TestRouteFiles.recipes
    static let apartments = TestRouteFiles.apartments

    static func fields(_ d: InProcessDaemon, _ id: String, as caller: Caller = .host) async throws -> [String: DBusValue] {
        let reply = try await d.reply("GetInvocation", [.string(id)], as: caller)
        return try #require(reply.first?.variantDictionaryValue)
    }

    @Test("every key of SPEC §3, with url only for URL sources")
    func keys() async throws {
        try await MethodTableTests.shipped { (d: InProcessDaemon) async throws in
            let opened = try await d.reply("OpenURL", [.string(Self.recipes), .string("bestrecipes://recipe/12?country=FR")])
            let id = opened[0].stringValue ?? ""
            let fields = try await Self.fields(d, id)
            #expect(Set(fields.keys) == [
                "invocation-id", "app-id", "source", "target", "parameters", "url", "status", "received-at", "attempts", "detail",
            ])
            #expect(fields["invocation-id"] == .string(id) && fields["app-id"] == .string(Self.recipes))
            #expect(fields["source"] == .string("url") && fields["target"] == .string("recipe"))
            #expect(fields["parameters"]?.stringDictionaryValue == ["id": "12", "country": "FR"])
            #expect(fields["url"] == .string("bestrecipes://recipe/12?country=FR"))
            #expect(fields["status"] == .string("pending") && fields["attempts"] == .uint32(0) && fields["detail"] == .string(""))
            #expect((fields["received-at"]?.int64Value ?? 0) > 0)

            let shortcut = try await d.reply("PerformShortcut", [.string(Self.recipes), .string("com.bestrecipes.favorites")])
            let superseded = try await Self.fields(d, id)
            #expect(superseded["status"] == .string("superseded"))
            #expect(superseded["detail"] == .string("superseded by \(shortcut[0].stringValue ?? "")"))
            let noURL = try await Self.fields(d, shortcut[0].stringValue ?? "")
            #expect(noURL["url"] == nil && noURL["source"] == .string("shortcut"))
        }
    }

    @Test("a refused invocation carries the error name as its detail and no route")
    func rejected() async throws {
        try await MethodTableTests.shipped { (d: InProcessDaemon) async throws in
            let error = try await d.error("OpenURL", [.string(Self.recipes), .string("bestrecipes://nowhere/at/all")])
            #expect(error.name == "org.deeplinker.Error.NoRoute")
            let history = try await d.reply("GetHistory", [.string(Self.recipes), .uint32(1)])
            let id = history.first?.arrayElements?.first?.structureFields?.first?.stringValue ?? ""
            let fields = try await Self.fields(d, id)
            #expect(fields["status"] == .string("rejected") && fields["detail"] == .string("org.deeplinker.Error.NoRoute"))
            #expect(fields["target"] == .string("") && fields["parameters"]?.stringDictionaryValue == [:])
        }
    }

    @Test("an id the daemon does not keep is UnknownInvocation naming it")
    func unknown() async throws {
        try await MethodTableTests.shipped { (d: InProcessDaemon) async throws in
            let error = try await d.error("GetInvocation", [.string("0f8c2a8e-0000-4a53-9d0e-3f7e2b1c9a10")])
            #expect(error.name == "org.deeplinker.Error.UnknownInvocation")
            #expect(error.message.contains("0f8c2a8e-0000-4a53-9d0e-3f7e2b1c9a10"))
        }
    }

    @Test("a sandboxed app sees its own app's invocations only; another app's is AccessDenied naming both ids")
    func access() async throws {
        try await MethodTableTests.shipped { (d: InProcessDaemon) async throws in
            let theirs = try await d.reply("OpenURL", [.string(Self.recipes), .string("bestrecipes://home")])[0].stringValue ?? ""
            let mine = try await d.reply("OpenURL", [.string(Self.apartments), .string("deeplinkTutorial://request/r-1")])[0].stringValue ?? ""
            let own = Caller.sandboxed(appID: Self.apartments)
            #expect(try await Self.fields(d, mine, as: own)["app-id"] == .string(Self.apartments))
            let refused = try await d.error("GetInvocation", [.string(theirs)], as: own)
            #expect(refused.name == "org.deeplinker.Error.AccessDenied")
            #expect(refused.message.contains("GetInvocation") && refused.message.contains(Self.apartments) && refused.message.contains(Self.recipes))
            let unidentified = try await d.error("GetInvocation", [.string(mine)], as: .sandboxed(appID: nil))
            #expect(unidentified.name == "org.deeplinker.Error.AccessDenied")
            #expect(try await Self.fields(d, theirs)["app-id"] == .string(Self.recipes), "a host process sees every app's")
        }
    }
}
