import DeeplinkerProtocol
/// What the daemon needs to bring an app to the user (SPEC §6): launch it when it is not running, or
/// raise it (`org.freedesktop.Application.Activate`) when it runs but is not active.
public struct Summons: Sendable, Hashable {
    public var appID: String
    /// The invocation that asked for the app; nil for one that created no route (an icon click).
    public var invocationID: String?
    /// The invocation's URL for URL sources (`%u` of a desktop entry's `Exec`).
    public var url: String?
    /// `activation-token` from the invocation (`XDG_ACTIVATION_TOKEN` for a launch).
    public var activationToken: String?
    /// `desktop-startup-id` from the invocation (`DESKTOP_STARTUP_ID` for a launch).
    public var desktopStartupID: String?
    /// For a raise: the unique name that owns the app's name.
    public var owner: String?
    /// For a launch: the engine time it was requested, which names it in
    /// ``DeeplinkEngine/launchDidNotTake(appID:launchRequestedAt:reason:)``.
    public var launchRequestedAt: Int64?

    public init(
        appID: String, invocationID: String? = nil, url: String? = nil, activationToken: String? = nil,
        desktopStartupID: String? = nil, owner: String? = nil
    ) {
        self.appID = appID
        self.invocationID = invocationID
        self.url = url
        self.activationToken = activationToken
        self.desktopStartupID = desktopStartupID
        self.owner = owner
    }

    /// The summons for an invocation's platform data (`activation-token`, `desktop-startup-id`,
    /// `deeplinker.url`).
    public init(appID: String, invocationID: String?, platformData: [String: String]) {
        self.init(
            appID: appID, invocationID: invocationID, url: platformData[PlatformDataKey.url],
            activationToken: platformData[PlatformDataKey.activationToken], desktopStartupID: platformData[PlatformDataKey.desktopStartupID])
    }
}
