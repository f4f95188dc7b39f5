extension AppRegistry {
    /// The only web activity type (`NSUserActivityTypeBrowsingWeb`).
    public static let browsingWebActivity = "browsing-web"

    /// `ContinueActivity`: `browsing-web` with an https URL is routed like a universal link with
    /// source `activity`; an empty URL yields `restore` (if the app enables `restore-last-route`)
    /// or nothing; other activity types are `Unsupported`, non-https URLs `InvalidURL`.
    public func resolveActivity(appID: String, activityType: String, webpageURL: String) throws(DeeplinkerError) -> Resolution {
        let config = try config(appID)
        guard activityType == Self.browsingWebActivity else {
            throw .unsupported("activity type '\(activityType)' (only '\(Self.browsingWebActivity)' is supported)")
        }
        if webpageURL.isEmpty { return config.restoreLastRoute ? .restore : .nothing }
        let url = try ValidatedURL(webpageURL)
        guard url.scheme == "https" else { throw .invalidURL(webpageURL, reason: "a web activity needs an https URL") }
        return .route(try config.resolve(url, source: .activity))
    }
}
