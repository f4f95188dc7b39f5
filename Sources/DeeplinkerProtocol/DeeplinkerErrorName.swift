/// The errors of SPEC §4, by their short names: the daemon answers `org.deeplinker.Error.<rawValue>`.
/// The one list of them, for the daemon, the client library, the CLI's exit codes and the XML.
public enum DeeplinkerErrorName: String, CaseIterable, Sendable {
    case unknownApp = "UnknownApp"
    case noApp = "NoApp"
    case ambiguousApp = "AmbiguousApp"
    case invalidURL = "InvalidURL"
    case noRoute = "NoRoute"
    case invalidPayload = "InvalidPayload"
    case invalidParameter = "InvalidParameter"
    case unknownShortcut = "UnknownShortcut"
    case shortcutUnavailable = "ShortcutUnavailable"
    case unknownInvocation = "UnknownInvocation"
    case unsupported = "Unsupported"
    case tooLarge = "TooLarge"
    case accessDenied = "AccessDenied"
    case invalidConfig = "InvalidConfig"
    case rateLimited = "RateLimited"
    case storageFailed = "StorageFailed"

    /// The full D-Bus error name.
    public var dbusName: String { DeeplinkerBus.errorName(rawValue) }
}
