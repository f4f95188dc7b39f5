/// One row of `GetLinkClaims`: an app's claimed domain and the verdict of its last check (SPEC §10).
public struct LinkClaim: Sendable, Hashable, Codable {
    public var appID: String
    /// The domain as the app's `domains` has it (`*.x` for a wildcard claim).
    public var domain: String
    /// `verified`, `not-listed`, `unreachable`, `approved` (by the user), or `unchecked` when
    /// never checked or revoked.
    public var verdict: String
    public var detail: String
    /// When it was last checked, µs since the epoch; 0 = never.
    public var checkedAtMicroseconds: Int64

    enum CodingKeys: String, CodingKey {
        case appID = "app_id"
        case domain, verdict, detail
        case checkedAtMicroseconds = "checked_at_usec"
    }

    public init(appID: String, domain: String, verdict: String, detail: String, checkedAtMicroseconds: Int64) {
        (self.appID, self.domain, self.verdict, self.detail) = (appID, domain, verdict, detail)
        self.checkedAtMicroseconds = checkedAtMicroseconds
    }

    /// Whether its links are handed over: `verified`, or `approved` by the user (SPEC §10).
    public var isVerified: Bool { verdict == "verified" || verdict == "approved" }
}
