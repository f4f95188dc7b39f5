/// One row of the daemon's `GetLinkClaims` (SPEC §3, §10): an app's entry of `domains` as written,
/// with the verdict of its last check.
public struct NativeHostClaim: Sendable, Hashable {
    /// The verdict of a domain whose association file lists the app.
    public static let verified = "verified"

    public var appID: String
    /// As written in the app's `domains` (`bestrecipes.com`, `*.bestrecipes.com`).
    public var domain: String
    /// `verified`, `not-listed`, `unreachable`, `approved` (by the user), or `unchecked` when
    /// never checked or revoked.
    public var verdict: String
    public var detail: String
    /// When it was last checked, µs since the epoch; 0 = never.
    public var checkedAtMicroseconds: Int64

    public init(appID: String, domain: String, verdict: String, detail: String = "", checkedAtMicroseconds: Int64 = 0) {
        self.appID = appID
        self.domain = domain
        self.verdict = verdict
        self.detail = detail
        self.checkedAtMicroseconds = checkedAtMicroseconds
    }

    /// Whether its links are handed over: `verified`, or `approved` by the user (SPEC §10).
    public var isVerified: Bool { DomainVerdict.handsOver(verdict) }

    /// Whether this entry of `domains` covers `host` (normalised: lowercase, punycode), by the
    /// routing rules of §5 (`*.x` covers subdomains of `x`, not `x`).
    public func covers(host: String) -> Bool {
        DomainPattern(parsing: domain)?.matches(host) ?? false
    }
}
