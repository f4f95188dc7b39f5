extension AppRegistry {
    /// Explains how `url` routes for `appID` (empty = found by the URL): each route in match order
    /// with the reason it did or did not decide. Never throws; the outcome is in `result`.
    public func explainURL(appID: String, url: String) -> RouteExplanation {
        var explanation = RouteExplanation(appID: appID, url: url, segments: [], claimProblem: nil, candidates: [], result: .failure(.noRoute(url, reason: "not resolved")))
        explanation.result = Result { () throws(DeeplinkerError) -> ResolvedRoute in try resolveURL(appID: appID, url: url) }
        if case .success(let resolved) = explanation.result { explanation.openURI = apps[resolved.appID]?.openURI(for: resolved) }
        guard let validated = try? ValidatedURL(url) else { return explanation }
        explanation.segments = validated.segments
        var id = appID
        if id.isEmpty {
            guard let found = try? app(for: validated) else { return explanation }
            id = found
            explanation.appID = found
        }
        guard let config = apps[id] else { return explanation }
        explanation.claimProblem = config.claimMismatch(validated)
        var winner: String?
        for position in config.matcher.order {
            let rule = config.routes[position]
            let verdict: RouteExplanation.Verdict
            if let why = rule.pattern.misfit(validated.segments) {
                verdict = .noFit(why)
            } else if let winner {
                verdict = .outranked(by: winner)
            } else {
                winner = rule.pattern.text
                verdict = .selected
            }
            explanation.candidates.append(.init(pattern: rule.pattern.text, target: rule.target, priority: rule.priority, exclude: rule.exclude, verdict: verdict))
        }
        return explanation
    }
}
