extension AppRegistry {
    /// `ActivateNotification`: parses the payload (64 KiB, depth 32) and maps it for `appID`.
    /// The action key is not a parameter; the daemon passes it on as `deeplinker.action`.
    public func resolveNotification(appID: String, payloadJSON: String) throws(DeeplinkerError) -> ResolvedRoute {
        let config = try config(appID)
        return try config.resolveNotification(try JSONParser.parse(payloadJSON))
    }
}
