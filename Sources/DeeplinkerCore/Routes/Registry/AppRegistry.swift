/// The loaded route files by app id, with indexes to find the app that claims a URL. Pure: loading
/// files is the daemon's job (`RouteDirectory`); every resolution here is a function of its inputs.
public struct AppRegistry: Sendable {
    public private(set) var apps: [String: AppConfig]
    private var schemeIndex: [String: [String]] = [:]
    private var exactDomainIndex: [String: [String]] = [:]
    private var wildcardDomainIndex: [String: [String]] = [:]

    public init(_ configs: [AppConfig] = []) {
        apps = [:]
        for config in configs { apps[config.appID] = config }
        reindex()
    }

    /// Configured app ids, sorted (`ListApps`).
    public var appIDs: [String] { apps.keys.sorted() }

    /// Whether `appID` is configured (a hash lookup, for per-event checks).
    public func contains(_ appID: String) -> Bool { apps[appID] != nil }

    /// Adds or replaces one app's config.
    public mutating func set(_ config: AppConfig) {
        apps[config.appID] = config
        reindex()
    }

    /// Removes an app (its route file is gone).
    public mutating func remove(_ appID: String) {
        apps[appID] = nil
        reindex()
    }

    /// The config of `appID`, or `UnknownApp`.
    public func config(_ appID: String) throws(DeeplinkerError) -> AppConfig {
        guard let config = apps[appID] else { throw .unknownApp(appID) }
        return config
    }

    private mutating func reindex() {
        schemeIndex = [:]
        exactDomainIndex = [:]
        wildcardDomainIndex = [:]
        for id in apps.keys.sorted() {
            let config = apps[id]!
            for scheme in config.schemes { schemeIndex[scheme, default: []].append(id) }
            for domain in config.domains {
                if domain.wildcard {
                    wildcardDomainIndex[domain.host, default: []].append(id)
                } else {
                    exactDomainIndex[domain.host, default: []].append(id)
                }
            }
        }
    }

    /// Apps claiming a URL: by custom scheme, or by https host (exact or `*.` parent domain).
    public func claimants(of url: ValidatedURL) -> [String] {
        guard url.isWeb else { return schemeIndex[url.scheme] ?? [] }
        guard url.scheme == "https", url.port == nil || url.port == 443, let host = url.host else { return [] }
        var ids = Set(exactDomainIndex[host] ?? [])
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            ids.formUnion(wildcardDomainIndex[String(rest)] ?? [])
        }
        return ids.sorted()
    }

    /// The single app claiming `url` (`OpenURL` with an empty app id): `NoApp` or `AmbiguousApp` otherwise.
    public func app(for url: ValidatedURL) throws(DeeplinkerError) -> String {
        let ids = claimants(of: url)
        guard let first = ids.first else { throw .noApp(url: url.original) }
        guard ids.count == 1 else { throw .ambiguousApp(url: url.original, candidates: ids) }
        return first
    }
}
