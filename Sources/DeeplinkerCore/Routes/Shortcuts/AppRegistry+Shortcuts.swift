extension AppRegistry {
    /// `PerformShortcut`: `UnknownShortcut` if the app does not configure `type`;
    /// `ShortcutUnavailable` if the app published a set (`SetShortcuts`) without it. A nil set means
    /// the app never published one, and every configured shortcut is available.
    public func resolveShortcut(appID: String, type: String, publishedShortcuts: Set<String>? = nil) throws(DeeplinkerError) -> ResolvedRoute {
        let config = try config(appID)
        guard let shortcut = config.shortcut(type) else { throw .unknownShortcut(app: appID, type: type) }
        if let publishedShortcuts, !publishedShortcuts.contains(type) { throw .shortcutUnavailable(app: appID, type: type) }
        guard let target = config.targets[shortcut.target] else { throw .unknownShortcut(app: appID, type: type) }
        let parameters = try ParameterBinder.bind(target: target, fixed: shortcut.params)
        return ResolvedRoute(appID: appID, route: Route(target: shortcut.target, parameters: parameters, source: .shortcut))
    }

    /// `SetShortcuts`: the configured shortcuts for `types`, in the given order without repeats;
    /// `UnknownShortcut` for any type the app does not configure.
    public func shortcutsToPublish(appID: String, types: [String]) throws(DeeplinkerError) -> [ShortcutConfig] {
        let config = try config(appID)
        var seen = Set<String>()
        var out: [ShortcutConfig] = []
        for type in types {
            guard let shortcut = config.shortcut(type) else { throw .unknownShortcut(app: appID, type: type) }
            if seen.insert(type).inserted { out.append(shortcut) }
        }
        return out
    }
}
