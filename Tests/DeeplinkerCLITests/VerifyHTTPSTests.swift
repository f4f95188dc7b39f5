import DBusKit
import DeeplinkerTestSupport
import Foundation
import Testing

/// `deeplinker verify` against real HTTPS servers on loopback (SPEC §10), in a network and mount
/// namespace with the test's hosts and CA (``HTTPSNamespace``): each case of the association file
/// and of the fetch, the verdicts recorded in the daemon, exit 14.
@Suite("verify against HTTPS servers", .serialized, .enabled(if: HTTPSNamespace.isAvailable, "\(HTTPSNamespace.unavailableReason ?? "")"))
struct VerifyHTTPSTests {
    /// Each app claims one domain, whose server does what the app id says.
    static let claims: [(app: String, domain: String, verdict: String, detail: String)] = [
        ("com.listed.App", "listed.test", "verified", "listed in https://listed.test/.well-known/deeplinker-app-links.json"),
        ("com.unlisted.App", "unlisted.test", "not-listed", "does not list com.unlisted.App (it lists com.other.App)"),
        ("com.wild.App", "*.wild.test", "verified", "with subdomains"),
        ("com.nosub.App", "*.nosub.test", "not-listed", "without \"subdomains\": true"),
        ("com.redirect.App", "redirect.test", "unreachable", "HTTP: status 301 redirects to https://listed.test/"),
        ("com.big.App", "big.test", "unreachable", "HTTP: the file is larger than 128 KiB"),
        ("com.broken.App", "broken.test", "not-listed", "broken JSON"),
        ("com.untrusted.App", "untrusted.test", "unreachable", "TLS: untrusted.test"),
        ("com.refused.App", "refused.test", "unreachable", "TCP: no connection to refused.test:443"),
        ("com.nowhere.App", "nowhere.test", "unreachable", "DNS: nowhere.test does not resolve"),
    ]

    static var routeFiles: [String: String] {
        Dictionary(uniqueKeysWithValues: claims.enumerated().map { index, claim in
            (claim.app, TestRouteFiles.minimal(scheme: "verify\(index)", ["domains": "[\"\(claim.domain)\"]"]))
        })
    }

    static func rows(_ stdout: String) throws -> [String: [String: Any]] {
        let rows = try #require(JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["app_id"] as? String ?? "", $0) })
    }

    @Test("every case gives its verdict with a detail naming the failure; the daemon records them; exit 14")
    func verdicts() async throws {
        try await DaemonFixture.withDaemon(routeFiles: Self.routeFiles) { f in
            let result = try await HTTPSNamespace.run(TestProcess.product("deeplinker"), ["verify", "--json", "--bus-address", f.bus.address])
            #expect(result.status == 14, "\(result.stderr)")
            #expect(result.stderr.contains("7 of 10 domains are not verified") || result.stderr.contains("not verified"), "\(result.stderr)")
            let rows = try Self.rows(result.stdout)
            for claim in Self.claims {
                let row = try #require(rows[claim.app], "\(claim.app) missing in \(result.stdout)")
                #expect(row["domain"] as? String == claim.domain)
                #expect(row["verdict"] as? String == claim.verdict, "\(claim.app): \(row)")
                #expect(row["check"] as? String == claim.verdict, "\(claim.app): \(row)")
                #expect((row["detail"] as? String)?.contains(claim.detail) == true, "\(claim.app): \(row["detail"] ?? "")")
                #expect((row["checked_at_usec"] as? Int ?? 0) > 0)
            }
            // The daemon has them: GetLinkClaims from the host, outside the namespace.
            let recorded = try await f.call("GetLinkClaims").first?.arrayElements?.compactMap(\.structureFields) ?? []
            for claim in Self.claims {
                #expect(recorded.first { $0[0] == .string(claim.app) }?[2] == .string(claim.verdict), "\(claim.app)")
            }
        }
    }

    @Test("verify ID checks only that app and exits 0 when it is verified; its text output names the domain and verdict")
    func oneApp() async throws {
        try await DaemonFixture.withDaemon(routeFiles: Self.routeFiles) { f in
            let result = try await HTTPSNamespace.run(TestProcess.product("deeplinker"), ["verify", "com.wild.App", "--bus-address", f.bus.address])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.lines.count == 1)
            #expect(result.lines.first?.hasPrefix("com.wild.App  *.wild.test  verified  listed in https://wild.test/") == true, "\(result.stdout)")
            let recorded = try await f.call("GetLinkClaims").first?.arrayElements?.compactMap(\.structureFields) ?? []
            #expect(recorded.filter { $0[2] == .string("verified") }.map { $0[0] } == [.string("com.wild.App")])
            let unknown = try await HTTPSNamespace.run(TestProcess.product("deeplinker"), ["verify", "com.example.Unknown", "--bus-address", f.bus.address])
            #expect(unknown.status == 4 && unknown.stderr.contains("com.example.Unknown"))
        }
    }

    @Test("an unreachable check after a verified one keeps verified (the grace), and status shows it")
    func graceThroughTheCLI() async throws {
        try await DaemonFixture.withDaemon(routeFiles: Self.routeFiles) { f in
            // Verified once by hand (as an earlier check would have), then the server refuses.
            _ = try await f.call("SetDomainVerification", [.string("com.refused.App"), .string("refused.test"), .string("verified"), .string("")])
            let result = try await HTTPSNamespace.run(TestProcess.product("deeplinker"), ["verify", "com.refused.App", "--json", "--bus-address", f.bus.address])
            #expect(result.status == 0, "\(result.stderr)")
            let row = try #require(try Self.rows(result.stdout)["com.refused.App"])
            #expect(row["verdict"] as? String == "verified" && row["check"] as? String == "unreachable")
            #expect((row["detail"] as? String)?.contains("30-day grace") == true, "\(row)")
            let status = try await f.run(["status"])
            #expect(status.stdout.contains("claimed domains:    10 (1 verified)"), "\(status.stdout)")
            #expect(status.lines.contains { $0.contains("com.refused.App") && $0.contains("refused.test") && $0.contains("verified") })
        }
    }
}
