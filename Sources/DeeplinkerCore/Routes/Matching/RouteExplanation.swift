/// Why a URL routes where it does (`deeplinker route ID URL`): every route of the app in match
/// order with its verdict, and the outcome.
public struct RouteExplanation: Sendable {
    /// What happened to one route.
    public enum Verdict: Sendable, Hashable {
        /// This route decided the URL.
        case selected
        /// The pattern fits, but an earlier route in match order decided.
        case outranked(by: String)
        /// The pattern does not fit, and why.
        case noFit(String)
    }

    /// One route and its verdict.
    public struct Candidate: Sendable, Hashable {
        public var pattern: String
        public var target: String?
        public var priority: Int
        public var exclude: Bool
        public var verdict: Verdict
    }

    public var appID: String
    public var url: String
    /// Decoded path segments (empty when the URL is invalid).
    public var segments: [String]
    /// Why the app does not claim the URL at all, if so.
    public var claimProblem: String?
    /// Every route in match order.
    public var candidates: [Candidate]
    public var result: Result<ResolvedRoute, DeeplinkerError>
    /// For a `delivery = "open"` app that routed the URL: the URI `Open` would get, or why none.
    public var openURI: Result<String, OpenRefusal>? = nil

    /// Human-readable lines for the CLI.
    public var lines: [String] {
        var out = ["URL \(url)", "app \(appID.isEmpty ? "(none)" : appID)"]
        if !segments.isEmpty || claimProblem == nil { out.append("segments [\(segments.map { "\"\($0)\"" }.joined(separator: ", "))]") }
        if let claimProblem { out.append("not claimed: \(claimProblem)") }
        for c in candidates {
            let head = "\(c.pattern)" + (c.exclude ? " (exclude)" : " → \(c.target ?? "")") + (c.priority != 0 ? " priority \(c.priority)" : "")
            switch c.verdict {
            case .selected: out.append("  ✓ \(head): matched")
            case .outranked(let by): out.append("  · \(head): fits, but '\(by)' comes first")
            case .noFit(let why): out.append("  ✗ \(head): \(why)")
            }
        }
        switch result {
        case .success(let r):
            let params = r.route.parameters.keys.sorted().map { "\($0)=\(r.route.parameters[$0]!)" }.joined(separator: " ")
            out.append("result: \(r.route.target)(\(params)) via \(r.routePattern ?? "")")
        case .failure(let e):
            out.append("result: \(e.name): \(e.message)")
        }
        switch openURI {
        case .success(let uri): out.append("opens: \(uri)")
        case .failure(let refusal): out.append("opens nothing: \(refusal.detail)")
        case nil: break
        }
        return out
    }
}
