import DeeplinkerProtocol
extension AppRegistry {
    /// Sources `Invoke` accepts.
    public static let invokeSources: [String] = ["url", "notification", "shortcut", "activity", "launch"]

    /// `Invoke(app_id, source, input, platform_data)`: dispatches to the matching resolver.
    /// `platformData` may hold `activity-type` (default `browsing-web`); `action` does not change the route.
    /// An unknown source is `Unsupported`; an input over 64 KiB is `TooLarge`.
    public func resolveInvoke(
        appID: String, source: String, input: String, platformData: [String: String] = [:],
        publishedShortcuts: Set<String>? = nil
    ) throws(DeeplinkerError) -> Resolution {
        let size = input.utf8.count
        guard size <= Limits.stringArgumentBytes else {
            throw .tooLarge(what: "input", size: size, limit: Limits.stringArgumentBytes)
        }
        switch source {
        case "url":
            return .route(try resolveURL(appID: appID, url: input))
        case "notification":
            return .route(try resolveNotification(appID: appID, payloadJSON: input))
        case "shortcut":
            return .route(try resolveShortcut(appID: appID, type: input, publishedShortcuts: publishedShortcuts))
        case "activity":
            return try resolveActivity(
                appID: appID, activityType: platformData[PlatformDataKey.activityType] ?? Self.browsingWebActivity, webpageURL: input)
        case "launch":
            return try resolveLaunch(appID: appID, optionsJSON: input, publishedShortcuts: publishedShortcuts).resolution
        default:
            throw .unsupported("invocation source '\(source)' (expected one of \(Self.invokeSources.joined(separator: ", ")))")
        }
    }
}
