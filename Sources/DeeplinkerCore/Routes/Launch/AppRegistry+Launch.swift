extension AppRegistry {
    /// `Launch`: classifies the options and routes their input for `appID` with the source of the
    /// option (url / universal-link, activity, notification, shortcut). `app-icon` and `unknown`
    /// give `restore` when the app enables `restore-last-route`, else nothing.
    public func resolveLaunch(appID: String, optionsJSON: String, publishedShortcuts: Set<String>? = nil) throws(DeeplinkerError) -> LaunchResolution {
        let config = try config(appID)
        let classification = try LaunchClassifier.classify(optionsJSON)
        let resolution: Resolution
        switch classification.input {
        case .url(let url):
            let validated = try ValidatedURL(url)
            resolution = .route(try config.resolve(validated, source: validated.isWeb ? .universalLink : .url))
        case .webpageURL(let url):
            resolution = try resolveActivity(appID: appID, activityType: "browsing-web", webpageURL: url)
        case .notification(let payload):
            resolution = .route(try config.resolveNotification(payload))
        case .shortcut(let type):
            resolution = .route(try resolveShortcut(appID: appID, type: type, publishedShortcuts: publishedShortcuts))
        case .none:
            resolution = config.restoreLastRoute ? .restore : .nothing
        }
        return LaunchResolution(kind: classification.kind, resolution: resolution)
    }
}
