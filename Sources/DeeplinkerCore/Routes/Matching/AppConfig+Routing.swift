extension AppConfig {
    /// Why this app does not claim `url` (scheme not listed, host not in `domains`), or nil if it does.
    public func claimMismatch(_ url: ValidatedURL) -> String? {
        if url.isWeb {
            guard url.scheme == "https" else { return "only https URLs are universal links, not \(url.scheme)" }
            if let port = url.port, port != 443 { return "universal links use the default port, not \(port)" }
            guard let host = url.host, claimsHost(host) else {
                let listed = domains.map(\.description).joined(separator: ", ")
                return "app '\(appID)' does not claim host '\(url.host ?? "")' (domains: \(listed.isEmpty ? "none" : listed))"
            }
            return nil
        }
        guard schemes.contains(url.scheme) else {
            let listed = schemes.joined(separator: ", ")
            return "app '\(appID)' does not claim scheme '\(url.scheme)' (schemes: \(listed.isEmpty ? "none" : listed))"
        }
        return nil
    }

    /// Routes a validated URL this app should handle: the first fitting route decides (an `exclude`
    /// route refuses with `NoRoute`, a parameter problem is `InvalidParameter`); unmatched URLs go to
    /// `fallback-target` with parameter `url`, else `NoRoute`.
    public func resolve(_ url: ValidatedURL, source: Source) throws(DeeplinkerError) -> ResolvedRoute {
        if let reason = claimMismatch(url) { throw .noRoute(url.original, reason: reason) }
        guard let match = matcher.match(url.segments) else {
            if let fallback = fallbackTarget {
                let route = Route(target: fallback, parameters: ["url": url.normalized], source: source)
                return ResolvedRoute(appID: appID, route: route, routePattern: "(fallback)", url: url.normalized)
            }
            throw .noRoute(url.original, reason: "no route of app '\(appID)' matches the path '\(url.path)'")
        }
        let rule = match.rule
        guard !rule.exclude, let targetName = rule.target, let target = targets[targetName] else {
            throw .noRoute(url.original, reason: "the path '\(url.path)' is excluded by route '\(rule.pattern.text)' of app '\(appID)'")
        }
        let parameters = try ParameterBinder.bind(
            target: target, fixed: rule.params, captures: match.captures, candidates: url.queryItems)
        return ResolvedRoute(
            appID: appID, route: Route(target: targetName, parameters: parameters, source: source),
            routePattern: rule.pattern.text, url: url.normalized)
    }
}
