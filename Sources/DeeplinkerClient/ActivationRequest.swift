import DBusKit
import DeeplinkerProtocol

/// An `org.freedesktop.Application.Activate` call: the launcher or the daemon asks the app to
/// present its window (SPEC §6, Raise). The route that caused it, if any, follows on `BecameActive`.
public struct ActivationRequest: Sendable, Hashable, Codable {
    /// `activation-token` (Wayland xdg-activation): pass it to the compositor when presenting.
    public var activationToken: String?
    /// `desktop-startup-id` (X11 startup notification).
    public var desktopStartupID: String?
    /// `deeplinker.invocation-id`: the invocation waiting for the app to become active, if any.
    public var invocationID: String?

    enum CodingKeys: String, CodingKey {
        case activationToken = "activation_token"
        case desktopStartupID = "desktop_startup_id"
        case invocationID = "invocation_id"
    }

    public init(activationToken: String? = nil, desktopStartupID: String? = nil, invocationID: String? = nil) {
        self.activationToken = activationToken
        self.desktopStartupID = desktopStartupID
        self.invocationID = invocationID
    }

    /// Reads the known keys of `Activate`'s `platform_data`; others are ignored.
    public init(platformData: [String: DBusValue]) {
        self.init(
            activationToken: platformData[PlatformDataKey.activationToken]?.stringValue,
            desktopStartupID: platformData[PlatformDataKey.desktopStartupID]?.stringValue,
            invocationID: platformData[PlatformDataKey.invocationID]?.stringValue)
    }
}
