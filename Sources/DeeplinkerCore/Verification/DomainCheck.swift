/// The outcome of one domain association check (SPEC §10).
public enum DomainVerdict: String, Sendable, Hashable, CaseIterable {
    /// The association file lists the app (with `subdomains` for a `*.x` claim).
    case verified
    /// The file was read but does not list the app, or is not valid JSON of the expected form.
    case notListed = "not-listed"
    /// The file could not be read: DNS, TCP, TLS or HTTP failure.
    case unreachable
    /// The user gave the app this domain's links (`approve-domain`), whatever the site lists.
    case approved
    /// The user took an approval back (`revoke-domain`): as if never checked.
    case unchecked

    /// Whether the verdict is the outcome of fetching the association file (`verify`), which
    /// never replaces the user's `approved`.
    public var isCheckOutcome: Bool {
        switch self {
        case .verified, .notListed, .unreachable: true
        case .approved, .unchecked: false
        }
    }

    /// Whether links of the domain are handed to the app: `verified`, or `approved` by the user.
    public static func handsOver(_ shown: String) -> Bool {
        shown == verified.rawValue || shown == approved.rawValue
    }
}

/// The latest check of one claim (an app and one of its `domains`), as the daemon stores it, and
/// when it was last verified: what `GetLinkClaims` shows follows from it and the time of asking.
public struct DomainCheck: Sendable, Hashable {
    public var appID: String
    /// The domain as the app's `domains` has it (normalised: lowercase, punycode, `*.` kept).
    public var domain: String
    /// The verdict of the latest check.
    public var verdict: DomainVerdict
    public var detail: String
    /// When the latest check was made, µs since the epoch.
    public var checkedAt: Int64
    /// When a check last said `verified` (0: never, or a later `not-listed` revoked it).
    public var verifiedAt: Int64

    /// How long an `unreachable` check keeps an earlier `verified` verdict: 30 days.
    public static let graceMicroseconds: Int64 = 30 * 86_400 * 1_000_000

    /// The verdict shown for a claim never checked (`checked_at` 0).
    public static let uncheckedVerdict = "unchecked"

    public init(appID: String, domain: String, verdict: DomainVerdict, detail: String, checkedAt: Int64, verifiedAt: Int64) {
        (self.appID, self.domain, self.verdict, self.detail) = (appID, domain, verdict, detail)
        (self.checkedAt, self.verifiedAt) = (checkedAt, verifiedAt)
    }

    /// The record after a check at `now` whose verdict is `verdict`: `verified` renews the grace,
    /// `not-listed` ends it (the site answered and does not list the app), `unreachable` leaves it.
    /// A check's outcome never replaces the user's `approved` (the previous record is kept); only
    /// `unchecked` (a revocation) or another approval does.
    public static func recording(
        _ verdict: DomainVerdict, detail: String, appID: String, domain: String, at now: Int64, previous: DomainCheck?
    ) -> DomainCheck {
        if let previous, previous.verdict == .approved, verdict.isCheckOutcome { return previous }
        let verifiedAt: Int64 =
            switch verdict {
            case .verified: now
            case .notListed, .unchecked: 0
            case .unreachable, .approved: previous?.verifiedAt ?? 0
            }
        return DomainCheck(appID: appID, domain: domain, verdict: verdict, detail: detail, checkedAt: now, verifiedAt: verifiedAt)
    }

    /// The verdict and detail `GetLinkClaims` shows at `now`: an `unreachable` check within 30 days
    /// of the last `verified` one still shows `verified`, and its detail says so.
    public func shown(at now: Int64) -> (verdict: String, detail: String) {
        guard verdict == .unreachable, verifiedAt > 0 else { return (verdict.rawValue, detail) }
        let until = verifiedAt + Self.graceMicroseconds
        guard now < until else { return (verdict.rawValue, detail) }
        let daysLeft = (until - now + 86_400_000_000 - 1) / 86_400_000_000
        return (DomainVerdict.verified.rawValue, "kept for \(daysLeft) more day\(daysLeft == 1 ? "" : "s") (30-day grace); last check unreachable: \(detail)")
    }
}
