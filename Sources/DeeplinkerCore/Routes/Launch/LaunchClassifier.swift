/// Classifies `Launch` options, the analogue of `didFinishLaunchingWithOptions` (SPEC §3), in this
/// order: `user-activity` with `webpage-url` → deep-link; `url` → deep-link; `remote-notification` or
/// `local-notification` → notification; `shortcut-item` → shortcut; nothing (or only
/// `""`/`{}`) → app-icon; anything else → unknown.
public enum LaunchClassifier {
    /// Throws `InvalidPayload` for non-objects, invalid JSON and known keys of the wrong JSON type,
    /// `TooLarge` over the payload limits.
    public static func classify(_ optionsJSON: String) throws(DeeplinkerError) -> LaunchClassification {
        if optionsJSON.isEmpty { return LaunchClassification(kind: .appIcon, input: .none) }
        guard case .object(let options) = try JSONParser.parse(optionsJSON) else {
            throw .invalidPayload("launch options must be a JSON object")
        }
        func wrongType(_ key: String, _ expected: String) -> DeeplinkerError {
            .invalidPayload("launch option '\(key)' must be \(expected)")
        }
        var activityURL: String?
        if let activity = options["user-activity"] {
            guard case .object(let members) = activity else { throw wrongType("user-activity", "an object") }
            if let url = members["webpage-url"] {
                guard case .string(let s) = url else { throw wrongType("user-activity.webpage-url", "a string") }
                activityURL = s
            }
            if let type = members["activity-type"], case .string = type {} else if members["activity-type"] != nil {
                throw wrongType("user-activity.activity-type", "a string")
            }
        }
        var url: String?
        if let value = options["url"] {
            guard case .string(let s) = value else { throw wrongType("url", "a string") }
            url = s
        }
        var notification: JSONValue?
        for key in ["remote-notification", "local-notification"] {
            guard let value = options[key] else { continue }
            guard case .object = value else { throw wrongType(key, "an object") }
            if notification == nil { notification = value }
        }
        var shortcut: String?
        if let value = options["shortcut-item"] {
            guard case .string(let s) = value else { throw wrongType("shortcut-item", "a string") }
            shortcut = s
        }
        if let value = options["source-application"], case .string = value {} else if options["source-application"] != nil {
            throw wrongType("source-application", "a string")
        }

        if let activityURL { return LaunchClassification(kind: .deepLink, input: .webpageURL(activityURL)) }
        if let url { return LaunchClassification(kind: .deepLink, input: .url(url)) }
        if let notification { return LaunchClassification(kind: .notification, input: .notification(notification)) }
        if let shortcut { return LaunchClassification(kind: .shortcut, input: .shortcut(shortcut)) }
        if options.isEmpty { return LaunchClassification(kind: .appIcon, input: .none) }
        return LaunchClassification(kind: .unknown, input: .none)
    }
}
