import DBusKit
import DeeplinkerCore
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Testing

/// `GetLinkClaims` and `SetDomainVerification` (SPEC §3, §10 "Domain association"): the verdicts
/// `deeplinker verify` records, the 30-day grace of an `unreachable` check, and their storage.
@Suite("Domain verification methods")
struct DomainVerificationMethodTests {
    static let recipes = TestRouteFiles.recipes
    static let day: Duration = .seconds(86_400)

    static func set(_ d: InProcessDaemon, _ domain: String, _ verdict: String, _ detail: String = "") async throws {
        #expect(try await d.reply("SetDomainVerification", [.string(recipes), .string(domain), .string(verdict), .string(detail)]) == [])
    }

    /// The claims as (domain, verdict, detail, checked_at).
    static func claims(_ reply: [DBusValue]) -> [(String, String, String, Int64)] {
        (reply.first?.arrayElements ?? []).compactMap(\.structureFields).map {
            ($0[1].stringValue ?? "", $0[2].stringValue ?? "", $0[3].stringValue ?? "", $0[4].int64Value ?? -1)
        }
    }

    static func claim(_ d: InProcessDaemon, _ domain: String) async throws -> (verdict: String, detail: String, checkedAt: Int64) {
        let row = claims(try await d.reply("GetLinkClaims", [])).first { $0.0 == domain }
        return (row?.1 ?? "absent", row?.2 ?? "", row?.3 ?? -1)
    }

    @Test("every claim is listed with its app, in the domains' order; never checked is unchecked with checked_at 0")
    func listing() async throws {
        try await InProcessDaemon.withDaemon(shipped: [Self.recipes, TestRouteFiles.apartments]) { (d: InProcessDaemon) async throws in
            let reply = try await d.reply("GetLinkClaims", [])
            let rows = (reply.first?.arrayElements ?? []).compactMap(\.structureFields)
            #expect(rows.map { $0[0] } == [.string(Self.recipes), .string(Self.recipes)])
            #expect(Self.claims(reply).map(\.0) == ["bestrecipes.com", "*.bestrecipes.com"])
            #expect(Self.claims(reply).allSatisfy { $0.1 == "unchecked" && $0.3 == 0 })
        }
    }

    @Test("a verdict is recorded at the clock's time; the domain may be written in any case, the claim keeps its own form")
    func records() async throws {
        let clock = TestClock()
        try await InProcessDaemon.withDaemon(shipped: [Self.recipes], clock: clock) { (d: InProcessDaemon) async throws in
            try await Self.set(d, "*.BestRecipes.COM", "not-listed", "the file lists com.other.App only")
            let claim = try await Self.claim(d, "*.bestrecipes.com")
            #expect(claim.verdict == "not-listed" && claim.detail == "the file lists com.other.App only")
            #expect(claim.checkedAt == clock.nowMicroseconds())
            #expect(try await Self.claim(d, "bestrecipes.com").verdict == "unchecked")
        }
    }

    @Test("an unreachable check keeps an earlier verified verdict for 30 days after it, and says so; then it is unreachable")
    func grace() async throws {
        let clock = TestClock()
        try await InProcessDaemon.withDaemon(shipped: [Self.recipes], clock: clock) { (d: InProcessDaemon) async throws in
            try await Self.set(d, "bestrecipes.com", "verified")
            clock.advance(Self.day * 10)
            try await Self.set(d, "bestrecipes.com", "unreachable", "DNS: bestrecipes.com: no such host")
            var claim = try await Self.claim(d, "bestrecipes.com")
            #expect(claim.verdict == "verified" && claim.checkedAt == clock.nowMicroseconds())
            #expect(claim.detail.contains("20 more days") && claim.detail.contains("DNS: bestrecipes.com: no such host"), "\(claim.detail)")
            clock.advance(Self.day * 20)
            claim = try await Self.claim(d, "bestrecipes.com")
            #expect(claim.verdict == "unreachable" && claim.detail == "DNS: bestrecipes.com: no such host")
            // Another unreachable check does not renew the grace; a verified one does.
            try await Self.set(d, "bestrecipes.com", "unreachable", "TCP: connection refused")
            #expect(try await Self.claim(d, "bestrecipes.com").verdict == "unreachable")
            try await Self.set(d, "bestrecipes.com", "verified")
            try await Self.set(d, "bestrecipes.com", "unreachable", "TLS: certificate expired")
            #expect(try await Self.claim(d, "bestrecipes.com").verdict == "verified")
        }
    }

    @Test("a not-listed check ends the grace: a later unreachable check is unreachable")
    func notListedEndsGrace() async throws {
        try await InProcessDaemon.withDaemon(shipped: [Self.recipes], clock: TestClock()) { (d: InProcessDaemon) async throws in
            try await Self.set(d, "bestrecipes.com", "verified")
            try await Self.set(d, "bestrecipes.com", "not-listed", "not in the file")
            try await Self.set(d, "bestrecipes.com", "unreachable", "HTTP: status 503")
            #expect(try await Self.claim(d, "bestrecipes.com").verdict == "unreachable")
        }
    }

    @Test("approved (the user's) is handed over; verify's outcomes never replace it; unchecked (a revocation) does, and approving again works")
    func approval() async throws {
        let clock = TestClock()
        try await InProcessDaemon.withDaemon(shipped: [Self.recipes], clock: clock) { (d: InProcessDaemon) async throws in
            try await Self.set(d, "bestrecipes.com", "not-listed", "the file lists com.other.App only")
            clock.advance(.seconds(5))
            try await Self.set(d, "bestrecipes.com", "approved", "approved by the user")
            let approvedAt = clock.nowMicroseconds()
            for verdict in ["verified", "not-listed", "unreachable"] {
                clock.advance(.seconds(5))
                try await Self.set(d, "bestrecipes.com", verdict, "a later check")
                let claim = try await Self.claim(d, "bestrecipes.com")
                #expect(claim.verdict == "approved" && claim.detail == "approved by the user" && claim.checkedAt == approvedAt, "after \(verdict): \(claim)")
            }
            try await Self.set(d, "bestrecipes.com", "unchecked", "approval revoked by the user")
            var claim = try await Self.claim(d, "bestrecipes.com")
            #expect(claim.verdict == "unchecked" && claim.detail == "approval revoked by the user")
            // After a revocation a check counts again.
            try await Self.set(d, "bestrecipes.com", "not-listed", "still not listed")
            #expect(try await Self.claim(d, "bestrecipes.com").verdict == "not-listed")
            try await Self.set(d, "bestrecipes.com", "approved", "again")
            claim = try await Self.claim(d, "bestrecipes.com")
            #expect(claim.verdict == "approved" && claim.detail == "again")
        }
    }

    @Test("a bad verdict, an unknown app and a domain the app does not claim are refused naming the value")
    func refusals() async throws {
        try await InProcessDaemon.withDaemon(shipped: [Self.recipes]) { (d: InProcessDaemon) async throws in
            let cases: [([String], String, [String])] = [
                ([Self.recipes, "bestrecipes.com", "Verified", ""], "InvalidParameter", ["verdict", "Verified"]),
                (["com.example.Unknown", "bestrecipes.com", "verified", ""], "UnknownApp", ["com.example.Unknown"]),
                ([Self.recipes, "www.bestrecipes.com", "verified", ""], "InvalidParameter", ["www.bestrecipes.com", "*.bestrecipes.com"]),
                ([Self.recipes, "", "verified", ""], "InvalidParameter", ["domain"]),
            ]
            for (arguments, name, named) in cases {
                let error = try await d.error("SetDomainVerification", arguments.map { .string($0) })
                #expect(error.name == "org.deeplinker.Error." + name, "\(arguments)")
                #expect(named.allSatisfy(error.message.contains), "\(error.message)")
            }
            #expect(try await Self.claim(d, "bestrecipes.com").verdict == "unchecked")
        }
    }

    @Test("verdicts survive a restart of the daemon (SQLite)")
    func survivesRestart() async throws {
        try await DaemonFixture.withDaemon(shipped: [Self.recipes]) { f in
            _ = try await f.call("SetDomainVerification", [.string(Self.recipes), .string("*.bestrecipes.com"), .string("verified"), .string("ok")])
            let before = try await f.call("GetLinkClaims")
            try await f.stopDaemon()
            try await f.startDaemon()
            let after = try await f.call("GetLinkClaims")
            #expect(after == before)
            #expect(Self.claims(after).first { $0.0 == "*.bestrecipes.com" }?.1 == "verified")
        }
    }

    @Test("both stores keep the latest check per claim", arguments: StoreKind.allCases)
    func stores(_ kind: StoreKind) async throws {
        let (store, directory) = try kind.make()
        _ = directory
        let first = DomainCheck(appID: "a.b.C", domain: "x.com", verdict: .verified, detail: "", checkedAt: 5, verifiedAt: 5)
        let second = DomainCheck.recording(.unreachable, detail: "TCP", appID: "a.b.C", domain: "x.com", at: 9, previous: first)
        let other = DomainCheck(appID: "a.b.C", domain: "*.x.com", verdict: .notListed, detail: "no", checkedAt: 7, verifiedAt: 0)
        try await store.write([.domainCheck(first), .domainCheck(other)])
        try await store.write([.domainCheck(second)])
        #expect(try await store.domainChecks() == [other, second])
        #expect(second.verifiedAt == 5)
        try await store.close()
    }
}
