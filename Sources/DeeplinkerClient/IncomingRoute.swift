import DBusKit
import DeeplinkerProtocol

/// A route the daemon delivered to the app through `ActivateAction`: the target, its parameters
/// and the `deeplinker.*` platform data that came with it.
public struct IncomingRoute: Sendable, Hashable, Codable {
    /// The target (the action name), e.g. `recipe`.
    public var target: String
    /// Canonicalised parameters, e.g. `["id": "12"]`.
    public var parameters: [String: String]
    /// `deeplinker.invocation-id`; empty when the caller was not the daemon.
    public var invocationID: String
    /// `deeplinker.source` (`url`, `universal-link`, `notification`, `shortcut`, `activity`, `restore`).
    public var source: String
    /// `deeplinker.url` for URL sources.
    public var url: String?
    /// `deeplinker.action`: the notification action key, when the route came from a notification button.
    public var action: String?
    /// `activation-token` (Wayland xdg-activation), to raise the window with.
    public var activationToken: String?
    /// `desktop-startup-id` (X11 startup notification).
    public var desktopStartupID: String?
    /// `deeplinker.received-at`, µs since the epoch.
    public var receivedAtMicroseconds: Int64?
    /// `deeplinker.redelivery`: the daemon could not tell whether an earlier delivery arrived.
    public var isRedelivery: Bool

    enum CodingKeys: String, CodingKey {
        case target, parameters, source, url, action
        case invocationID = "invocation_id"
        case activationToken = "activation_token"
        case desktopStartupID = "desktop_startup_id"
        case receivedAtMicroseconds = "received_at_usec"
        case isRedelivery = "redelivery"
    }

    public init(
        target: String, parameters: [String: String] = [:], invocationID: String = "", source: String = "",
        url: String? = nil, action: String? = nil, activationToken: String? = nil, desktopStartupID: String? = nil,
        receivedAtMicroseconds: Int64? = nil, isRedelivery: Bool = false
    ) {
        self.target = target
        self.parameters = parameters
        self.invocationID = invocationID
        self.source = source
        self.url = url
        self.action = action
        self.activationToken = activationToken
        self.desktopStartupID = desktopStartupID
        self.receivedAtMicroseconds = receivedAtMicroseconds
        self.isRedelivery = isRedelivery
    }

    /// Reads `ActivateAction(s action_name, av parameter, a{sv} platform_data)`; nil when the
    /// arguments do not have that shape.
    init?(activateActionArguments arguments: [DBusValue]) {
        guard arguments.count == 3, let target = arguments[0].stringValue else { return nil }
        let parameter = arguments[1].arrayElements?.first
        let parameters = parameter?.stringDictionaryValue ?? [:]
        let platform = arguments[2].variantDictionaryValue ?? [:]
        self.init(
            target: target, parameters: parameters,
            invocationID: platform[PlatformDataKey.invocationID]?.stringValue ?? "",
            source: platform[PlatformDataKey.source]?.stringValue ?? "",
            url: platform[PlatformDataKey.url]?.stringValue,
            action: platform[PlatformDataKey.notificationAction]?.stringValue,
            activationToken: platform[PlatformDataKey.activationToken]?.stringValue,
            desktopStartupID: platform[PlatformDataKey.desktopStartupID]?.stringValue,
            receivedAtMicroseconds: platform[PlatformDataKey.receivedAt]?.int64Value,
            isRedelivery: platform[PlatformDataKey.redelivery]?.boolValue ?? false)
    }
}
