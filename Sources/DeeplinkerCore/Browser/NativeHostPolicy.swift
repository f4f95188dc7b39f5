import DeeplinkerProtocol

/// What the native host decides for an `open` message before it calls the daemon (SPEC §10): a
/// link is handed over only when its host is claimed by exactly one app and one of that app's
/// claims covering the host is verified. Pure, so the rule is tested without a browser.
public enum NativeHostPolicy {
    /// The host's decision for one link.
    public enum Decision: Sendable, Hashable {
        /// Call `OpenURL("", url)`; `appID` is the app that claims the link.
        case open(appID: String)
        /// Leave the link to the browser: the reply's `reason` and `detail`.
        case refuse(reason: String, detail: String)
    }

    /// The reason for a link whose domain is claimed but not verified for the app.
    public static let notVerified = "not-verified"

    /// Decides for `url` given the daemon's claims.
    public static func decide(url: String, claims: [NativeHostClaim]) -> Decision {
        let validated: ValidatedURL
        do {
            validated = try ValidatedURL(url)
        } catch {
            return .refuse(reason: error.name, detail: error.message)
        }
        guard validated.scheme == "https", let host = validated.host else {
            return .refuse(reason: notVerified, detail: "'\(url)' is not an https link; only verified https links are handed to apps")
        }
        let covering = claims.filter { $0.covers(host: host) }
        let apps = Set(covering.map(\.appID)).sorted()
        guard let appID = apps.first else {
            return .refuse(reason: DeeplinkerErrorName.noApp.rawValue, detail: "no app claims the domain \(host)")
        }
        guard apps.count == 1 else {
            return .refuse(
                reason: DeeplinkerErrorName.ambiguousApp.rawValue,
                detail: "several apps claim the domain \(host): \(apps.joined(separator: ", "))")
        }
        if covering.contains(where: \.isVerified) { return .open(appID: appID) }
        let why = covering.map { claim in
            // `unchecked` with a time is a revoked approval; without one, never checked.
            let neverChecked = claim.verdict.isEmpty || claim.verdict == "unchecked" && claim.checkedAtMicroseconds == 0
            let verdict = neverChecked ? "never checked" : claim.verdict
            return "\(claim.domain) is \(verdict)" + (claim.detail.isEmpty ? "" : " (\(claim.detail))")
        }
        return .refuse(
            reason: notVerified, detail: "\(appID)'s claim on \(host) is not verified: \(why.joined(separator: "; "))")
    }

    /// The `claims` reply: the verified claims (`verified` or `approved`, which the extension hands
    /// over) and apart the others (its popup offers their approval).
    public static func claimsReply(_ claims: [NativeHostClaim], names: [String: String]) -> NativeHostReply {
        let all = browserClaims(claims, names: names)
        return .claims(all.filter { DomainVerdict.handsOver($0.verdict) }, unverified: all.filter { !DomainVerdict.handsOver($0.verdict) })
    }

    /// Every claim with its verdict and each app's display name (the app id when `names` has
    /// none), sorted by app and domain.
    public static func browserClaims(_ claims: [NativeHostClaim], names: [String: String]) -> [NativeHostReply.Claim] {
        var seen = Set<String>()
        return claims
            .map {
                NativeHostReply.Claim(
                    appID: $0.appID, name: names[$0.appID] ?? $0.appID, domain: $0.domain,
                    verdict: $0.verdict.isEmpty ? DomainVerdict.unchecked.rawValue : $0.verdict, detail: $0.detail)
            }
            .filter { seen.insert($0.appID + " " + $0.domain).inserted }
            .sorted { ($0.appID, $0.domain) < ($1.appID, $1.domain) }
    }

    /// How old a verdict may get before the host has it checked again (SPEC §10).
    public static let reverifyAfterMicroseconds: Int64 = 7 * 24 * 3600 * 1_000_000

    /// The apps with a verified claim (not one the user approved) checked longer than 7 days before `now` (µs since the epoch),
    /// sorted: the host runs `deeplinker verify` for each, without waiting for it.
    public static func appsToReverify(_ claims: [NativeHostClaim], now: Int64) -> [String] {
        Set(claims.filter { $0.verdict == NativeHostClaim.verified && $0.checkedAtMicroseconds > 0 && now - $0.checkedAtMicroseconds > reverifyAfterMicroseconds }
            .map(\.appID)).sorted()
    }
}
