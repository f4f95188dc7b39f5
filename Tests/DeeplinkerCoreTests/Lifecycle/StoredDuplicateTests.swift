import DeeplinkerCore
import DeeplinkerTestSupport
import Testing

/// De-duplication across a restart without loading history (SPEC §6): the engine knows what arrived
/// since it started and says when the store must be asked; the daemon hands the answer in.
@Suite struct StoredDuplicateTests {
    let app = EngineFixture.app
    static let window: Duration = .seconds(60)

    /// An invocation the previous daemon stored, received `ago` before now.
    func stored(_ id: String, key: String, ago: Duration, status: InvocationStatus = .delivered, clock: TestClock) -> Invocation {
        Invocation(
            id: id, appID: app, source: .url, route: Route(target: "recipe", parameters: ["id": id], source: .url),
            status: status, receivedAt: clock.nowMicroseconds() - ago.engineMicrosecondsForTests, dedupeKey: key)
    }

    @Test("a key whose window reaches before the start needs the store, from now − window + 1 µs")
    func keyWhoseWindowReachesBeforeTheStartNeedsTheStore() {
        let f = EngineFixture(policy: AppPolicy(dedupeWindow: Self.window))
        #expect(f.engine.startedAt == f.clock.nowMicroseconds())
        let since = f.engine.storedDuplicateSince(appID: app, key: "k")
        #expect(since == f.clock.nowMicroseconds() - 60_000_000 + 1)
        #expect(f.engine.needsStoredDuplicate(appID: app, key: "k"))
    }

    @Test("once the window starts after the engine did, no key needs the store")
    func afterOneWindowNothingNeedsTheStore() {
        let f = EngineFixture(policy: AppPolicy(dedupeWindow: Self.window))
        f.clock.advance(.seconds(59))
        #expect(f.engine.needsStoredDuplicate(appID: app, key: "k"))
        f.clock.advance(.seconds(2))
        #expect(!f.engine.needsStoredDuplicate(appID: app, key: "k"))
    }

    @Test("no look-up for an app that does not de-duplicate, an unknown app, or a key the engine holds")
    func noLookUpWhenTheEngineKnows() throws {
        var f = EngineFixture(policy: AppPolicy(dedupeWindow: Self.window))
        #expect(!f.engine.needsStoredDuplicate(appID: "org.unknown.App", key: "k"))
        _ = try f.engine.receive(EngineFixture.request("a", key: "k"))
        #expect(!f.engine.needsStoredDuplicate(appID: app, key: "k"))
        #expect(f.engine.needsStoredDuplicate(appID: app, key: "other"))
        let off = EngineFixture(policy: AppPolicy(dedupeWindow: .zero))
        #expect(!off.engine.needsStoredDuplicate(appID: app, key: "k"))
    }

    @Test("a stored invocation handed in makes a repeat within the window its duplicate, even delivered")
    func storedInvocationDeduplicatesARepeat() throws {
        var f = EngineFixture(policy: AppPolicy(dedupeWindow: Self.window))
        f.engine.rememberStored(stored("first", key: "k", ago: .seconds(30), clock: f.clock))
        #expect(!f.engine.needsStoredDuplicate(appID: app, key: "k"))
        let repeated = try f.engine.receive(EngineFixture.request("second", key: "k"))
        #expect(repeated.isDuplicate)
        #expect(repeated.invocation.id == "first")
        #expect(repeated.effects.statuses.isEmpty, "nothing new is recorded")
        // 31 s later the first is out of its window: a new invocation.
        f.clock.advance(.seconds(31))
        let later = try f.engine.receive(EngineFixture.request("third", key: "k"))
        #expect(!later.isDuplicate)
        #expect(later.invocation.id == "third")
    }

    @Test("a rejected or key-less stored invocation is never taken over")
    func rejectedNeverDeduplicates() throws {
        var f = EngineFixture(policy: AppPolicy(dedupeWindow: Self.window))
        f.engine.rememberStored(stored("refused", key: "k", ago: .seconds(5), status: .rejected, clock: f.clock))
        var bare = stored("bare", key: "j", ago: .seconds(5), clock: f.clock)
        bare.dedupeKey = nil
        f.engine.rememberStored(bare)
        #expect(f.engine.needsStoredDuplicate(appID: app, key: "k"))
        #expect(try !f.engine.receive(EngineFixture.request("new", key: "k")).isDuplicate)
    }

    @Test("stored keys kept out of arrival order are still pruned, and never replace a newer entry")
    func storedKeysArePrunedInOrder() throws {
        var f = EngineFixture(policy: AppPolicy(dedupeWindow: Self.window))
        f.clock.advance(.seconds(10))
        _ = try f.engine.receive(EngineFixture.request("live", key: "live"))
        f.engine.rememberStored(stored("old", key: "old", ago: .seconds(50), clock: f.clock))
        f.engine.rememberStored(stored("older", key: "live", ago: .seconds(55), clock: f.clock))
        #expect(try f.engine.receive(EngineFixture.request("x", key: "live")).invocation.id == "live")
        // 11 s on, "old" left its window (61 s), "live" has not (11 s).
        f.clock.advance(.seconds(11))
        #expect(try !f.engine.receive(EngineFixture.request("y", key: "old")).isDuplicate)
        #expect(try f.engine.receive(EngineFixture.request("z", key: "live")).invocation.id == "live")
    }
}

extension Duration {
    /// Whole microseconds, for building engine timestamps in tests.
    var engineMicrosecondsForTests: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}
