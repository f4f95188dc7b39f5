import DBusKit
@testable import DeeplinkerCLI
import DeeplinkerTestSupport
import Foundation
import Testing

/// `approve-domain` and `revoke-domain` (SPEC §7, §10 "Approved by the user") against a real
/// daemon: the verdict `approved` is recorded, shown by `status` and `apps --json`, kept by
/// `verify`, reported by `doctor` as such, and taken back as `unchecked`.
@Suite
struct DomainApprovalTests {
    static let app = "com.example.Apartments"

    /// The verdict `apps --json` shows for the app's `apartments.test`.
    static func verdict(_ f: DaemonFixture) async throws -> String {
        let apps = try await f.run(["apps", "--json"])
        #expect(apps.status == 0, "\(apps.stderr)")
        let rows = try JSONSerialization.jsonObject(with: Data(apps.stdout.utf8)) as? [[String: Any]] ?? []
        let domains = rows.first { $0["app_id"] as? String == app }?["domains"] as? [[String: Any]] ?? []
        return domains.first { $0["domain"] as? String == "apartments.test" }?["verdict"] as? String ?? "absent"
    }

    @Test func anApprovalIsRecordedShownAndKeptByVerifyUntilRevoked() async throws {
        try await DaemonFixture.withDaemon(routeFiles: BrowserEndToEndTests.routeFiles) { f in
            try await f.call("SetDomainVerification", [.string(Self.app), .string("apartments.test"), .string("not-listed"), .string("404")])
            #expect(try await Self.verdict(f) == "not-listed")

            // Any case of the domain; the claim keeps its own form.
            let approve = try await f.run(["approve-domain", Self.app, "Apartments.TEST"])
            #expect(approve.status == 0, "\(approve.output)")
            #expect(approve.stdout.hasPrefix("\(Self.app)  apartments.test  approved  approved by the user"), "\(approve.stdout)")
            #expect(try await Self.verdict(f) == "approved")
            let status = try await f.run(["status"])
            #expect(status.lines.contains("  claimed domains:    3 (0 verified, 1 approved by the user)"), "\(status.stdout)")

            // verify does not fetch an approved domain, keeps it, and counts it as fine.
            let verify = try await f.run(["verify", Self.app])
            #expect(verify.status == 0, "\(verify.output)")
            #expect(verify.stdout.contains("apartments.test  approved"), "\(verify.stdout)")
            // Nor does a check's outcome recorded directly replace it.
            try await f.call("SetDomainVerification", [.string(Self.app), .string("apartments.test"), .string("not-listed"), .string("a check")])
            #expect(try await Self.verdict(f) == "approved")

            let json = try await f.run(["revoke-domain", Self.app, "apartments.test", "--json"])
            #expect(json.status == 0, "\(json.output)")
            let row = try DaemonFixture.json(json.stdout)
            #expect(row["verdict"] as? String == "unchecked")
            #expect(row["detail"] as? String == "approval revoked by the user")
            #expect(try await Self.verdict(f) == "unchecked")
        }
    }

    @Test func aDomainTheAppDoesNotClaimAndAnUnknownAppAreRefusedNamingThem() async throws {
        try await DaemonFixture.withDaemon(routeFiles: BrowserEndToEndTests.routeFiles) { f in
            let other = try await f.run(["approve-domain", Self.app, "bestrecipes.test"])
            #expect(other.status == ExitStatus.invalidInput.rawValue, "\(other.output)")
            #expect(other.stderr.contains("InvalidParameter") && other.stderr.contains("bestrecipes.test") && other.stderr.contains("apartments.test"), "\(other.stderr)")
            let unknown = try await f.run(["revoke-domain", "com.example.Nobody", "apartments.test"])
            #expect(unknown.status == ExitStatus.unknownApp.rawValue, "\(unknown.output)")
            #expect(unknown.stderr.contains("com.example.Nobody"), "\(unknown.stderr)")
            #expect(try await Self.verdict(f) == "unchecked")
        }
    }

    @Test func doctorReportsAnApprovedDomainAsSuchNotAsAFailure() {
        let now: Int64 = 10 * 86_400 * 1_000_000
        let approved = DoctorChecks.domain(
            .init(appID: "a.B", domain: "b.com", verdict: "approved", detail: "approved by the user", checkedAt: now - 7_200_000_000), now: now)
        #expect(approved.ok)
        #expect(approved.detail.hasPrefix("approved by the user, recorded 2 h ago"), "\(approved.detail)")
        #expect(approved.detail.contains("deeplinker revoke-domain a.B b.com"))
        let revoked = DoctorChecks.domain(
            .init(appID: "a.B", domain: "b.com", verdict: "unchecked", detail: "approval revoked by the user", checkedAt: now - 1), now: now)
        #expect(!revoked.ok && revoked.fix.hasSuffix("deeplinker verify a.B"))
    }
}
