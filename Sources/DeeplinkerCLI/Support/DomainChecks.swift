import DeeplinkerClient
import DeeplinkerCore
import DomainVerification

/// `verify` and `install-desktop`'s check of an app's domains (SPEC §10): this process fetches
/// the association files (the daemon stays off the network) and the daemon records the verdicts.
enum DomainChecks {
    /// One claim as `verify --json` and `apps --json` show it.
    struct Row: Codable, Equatable {
        var appID: String
        var domain: String
        /// What the daemon shows now (`verified` also within the grace of an unreachable check).
        var verdict: String
        var detail: String
        var checkedAtMicroseconds: Int64
        /// The verdict of the check just made (`verify` only).
        var check: String?

        enum CodingKeys: String, CodingKey {
            case appID = "app_id"
            case domain, verdict, detail, check
            case checkedAtMicroseconds = "checked_at_usec"
        }

        init(_ claim: LinkClaim, check: String? = nil) {
            (appID, domain, verdict, detail) = (claim.appID, claim.domain, claim.verdict, claim.detail)
            (checkedAtMicroseconds, self.check) = (claim.checkedAtMicroseconds, check)
        }
    }

    /// Fetches the files of `claims` and records each verdict with `SetDomainVerification`.
    static func checkAndRecord(_ claims: [(appID: String, domain: String)], proxy: DeeplinkerProxy) async throws -> [DomainVerifier.Outcome] {
        if !claims.isEmpty, let reason = HTTPSFetch.unavailableReason { throw CLIFailure(.failure, reason) }
        let outcomes = DomainVerifier.check(claims)
        for outcome in outcomes {
            try await proxy.setDomainVerification(appID: outcome.appID, domain: outcome.domain, verdict: outcome.verdict.rawValue, detail: outcome.detail)
        }
        return outcomes
    }

    /// `app  domain  verdict  detail` lines, columns aligned.
    static func lines(_ rows: [Row], showApp: Bool = true) -> [String] {
        let appWidth = rows.map(\.appID.count).max() ?? 0
        let domainWidth = rows.map(\.domain.count).max() ?? 0
        let verdictWidth = rows.map(\.verdict.count).max() ?? 0
        func pad(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }
        return rows.map { row in
            // The user's approval or revocation was recorded, not checked against the site.
            let when = row.verdict == DomainVerdict.approved.rawValue || row.verdict == DomainVerdict.unchecked.rawValue ? "recorded" : "checked"
            let checked = row.checkedAtMicroseconds == 0 ? "" : " (\(when) \(Output.timestamp(row.checkedAtMicroseconds)))"
            return (showApp ? pad(row.appID, appWidth) + "  " : "") + pad(row.domain, domainWidth) + "  " + pad(row.verdict, verdictWidth)
                + "  " + row.detail + checked
        }
    }
}
