import DBusKit
import DeeplinkerCore
import DeeplinkerDaemon
import DeeplinkerTestSupport
import Testing

/// The scheme handler entries' `org.freedesktop.Application` methods in process: each goes through
/// `Invoke`'s entry of the one dispatcher, so its access rules, rate limit and refusals are Invoke's.
@Suite("Handler entries in process")
struct HandlerEntryDispatchTests {
    static let recipes = TestRouteFiles.recipes
    static let apartments = TestRouteFiles.apartments
    static let own = Caller.sandboxed(appID: apartments)
    static var noData: DBusValue { .variantDictionary([:]) }

    @Test("Open routes and stores each URI, Activate is an icon launch, ActivateAction is Unsupported")
    func methods() async throws {
        try await MethodTableTests.shipped { (d: InProcessDaemon) async throws in
            let opened = try await d.handlerEntry(Self.recipes, "Open", [.strings(["bestrecipes://recipe/1", "bestrecipes://home"]), Self.noData]).get()
            #expect(opened.isEmpty)
            let history = try await d.reply("GetHistory", [.string(Self.recipes), .uint32(0)])
            let targets = history.first?.arrayElements?.compactMap { $0.structureFields?[3].stringValue }
            #expect(targets == ["home", "recipe"])
            #expect(try await d.handlerEntry(Self.recipes, "Open", [.strings([]), Self.noData]).get().isEmpty)
            #expect(try await d.handlerEntry(Self.recipes, "Activate", [Self.noData]).get().isEmpty)

            // One refused URI makes the answer its refusal.
            let mixed = await d.handlerEntry(Self.recipes, "Open", [.strings(["bestrecipes://recipe/x", "bestrecipes://recipe/3"]), Self.noData])
            #expect(throws: DBusError.self) { try mixed.get() }
            if case .failure(let error) = mixed {
                #expect(error.name == "org.deeplinker.Error.InvalidParameter" && error.message.contains("id"))
            }
            let action = await d.handlerEntry(Self.recipes, "ActivateAction", [.string("recipe"), .array(elementSignature: "v", []), Self.noData])
            if case .failure(let error) = action {
                #expect(error.name == "org.deeplinker.Error.Unsupported" && error.message.contains("com.bestrecipes.App.deeplinker"))
            } else {
                Issue.record("ActivateAction answered \(action)")
            }
            let badSignature = await d.handlerEntry(Self.recipes, "Open", [.string("bestrecipes://recipe/1"), Self.noData])
            if case .failure(let error) = badSignature {
                #expect(error.name == DBusError.invalidArgsName && error.message.contains("'asa{sv}'"))
            } else {
                Issue.record("Open with a string answered \(badSignature)")
            }
        }
    }

    @Test("a sandboxed app may open another app's links through its handler entry, but not launch it")
    func access() async throws {
        try await MethodTableTests.shipped { (d: InProcessDaemon) async throws in
            _ = try await d.handlerEntry(Self.recipes, "Open", [.strings(["bestrecipes://recipe/1"]), Self.noData], as: Self.own).get()
            let launch = await d.handlerEntry(Self.recipes, "Activate", [Self.noData], as: Self.own)
            if case .failure(let error) = launch {
                #expect(error.name == "org.deeplinker.Error.AccessDenied" && error.message.contains(Self.recipes))
            } else {
                Issue.record("Activate for another app answered \(launch)")
            }
            _ = try await d.handlerEntry(Self.apartments, "Activate", [Self.noData], as: Self.own).get()
        }
    }

    @Test("a sandboxed connection's Opens count toward Invoke's rate limit")
    func rateLimit() async throws {
        let clock = TestClock()
        try await InProcessDaemon.withDaemon(shipped: [Self.recipes, Self.apartments], clock: clock) { (d: InProcessDaemon) async throws in
            for i in 0..<100 {
                _ = try await d.handlerEntry(Self.recipes, "Open", [.strings(["bestrecipes://recipe/\(i)"]), Self.noData], as: Self.own, sender: ":1.50").get()
            }
            let limited = await d.handlerEntry(Self.recipes, "Open", [.strings(["bestrecipes://recipe/100"]), Self.noData], as: Self.own, sender: ":1.50")
            if case .failure(let error) = limited {
                #expect(error.name == "org.deeplinker.Error.RateLimited")
            } else {
                Issue.record("the 101st Open answered \(limited)")
            }
            _ = try await d.handlerEntry(Self.recipes, "Open", [.strings(["bestrecipes://recipe/100"]), Self.noData], sender: ":1.51").get()
        }
    }
}
