extension AppRegistry {
    /// `OpenURL` / `ResolveURL`: validates the URL, finds the app when `appID` is empty (`NoApp`,
    /// `AmbiguousApp`) and routes it; source is `url` for custom schemes, `universal-link` for https.
    public func resolveURL(appID: String, url: String) throws(DeeplinkerError) -> ResolvedRoute {
        let validated = try ValidatedURL(url)
        let id = appID.isEmpty ? try app(for: validated) : appID
        let config = try config(id)
        return try config.resolve(validated, source: validated.isWeb ? .universalLink : .url)
    }
}
