import DeeplinkerCore

/// Checks claims (an app and one of its `domains`) against their association files, each file
/// fetched once however many claims it decides (`x` and `*.x` share one).
public enum DomainVerifier {
    /// One checked claim.
    public struct Outcome: Sendable, Hashable {
        public var appID: String
        /// The claim as the daemon lists it (`*.x` for a wildcard).
        public var domain: String
        public var url: String
        public var verdict: DomainVerdict
        public var detail: String
    }

    /// Checks each claim; `fetch` gets each file's URL once (``HTTPSFetch/get(_:maximumBytes:timeoutSeconds:)``
    /// unless a test passes another). A domain that does not parse is `not-listed`.
    public static func check(
        _ claims: [(appID: String, domain: String)],
        fetch: (String) -> Result<[UInt8], FetchFailure> = { HTTPSFetch.get($0) }
    ) -> [Outcome] {
        var fetched: [String: Result<[UInt8], FetchFailure>] = [:]
        return claims.map { claim in
            guard let pattern = DomainPattern(parsing: claim.domain) else {
                return Outcome(appID: claim.appID, domain: claim.domain, url: "", verdict: .notListed, detail: "not a domain: \(claim.domain)")
            }
            let url = AssociationFile.url(for: pattern)
            let result = fetched[url] ?? fetch(url)
            fetched[url] = result
            let (verdict, detail) = AssociationFile.verdict(fetch: result, appID: claim.appID, claim: pattern)
            return Outcome(appID: claim.appID, domain: claim.domain, url: url, verdict: verdict, detail: detail)
        }
    }
}
