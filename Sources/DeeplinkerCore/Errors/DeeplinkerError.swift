/// Every refusal the daemon can answer with. The daemon maps each case to the D-Bus error
/// `org.deeplinker.Error.<name>` in one place; `message` always names the offending value.
public enum DeeplinkerError: Error, Sendable, Equatable {
    case unknownApp(String)
    case noApp(url: String)
    case ambiguousApp(url: String, candidates: [String])
    case invalidURL(String, reason: String)
    case noRoute(String, reason: String)
    case invalidPayload(String)
    case invalidParameter(name: String, value: String?, reason: String)
    case unknownShortcut(app: String, type: String)
    case shortcutUnavailable(app: String, type: String)
    case unsupported(String)
    case tooLarge(what: String, size: Int, limit: Int)
    case accessDenied(String)
    case invalidConfig(String)
    /// The invocation could not be stored (disk full, I/O error, read-only or locked database);
    /// nothing was acknowledged. The text says what failed.
    case storageFailed(String)

    /// The error's short name, the last component of its D-Bus error name.
    public var name: String {
        switch self {
        case .unknownApp: "UnknownApp"
        case .noApp: "NoApp"
        case .ambiguousApp: "AmbiguousApp"
        case .invalidURL: "InvalidURL"
        case .noRoute: "NoRoute"
        case .invalidPayload: "InvalidPayload"
        case .invalidParameter: "InvalidParameter"
        case .unknownShortcut: "UnknownShortcut"
        case .shortcutUnavailable: "ShortcutUnavailable"
        case .unsupported: "Unsupported"
        case .tooLarge: "TooLarge"
        case .accessDenied: "AccessDenied"
        case .invalidConfig: "InvalidConfig"
        case .storageFailed: "StorageFailed"
        }
    }

    /// A human-readable sentence naming the bad value.
    public var message: String {
        switch self {
        case .unknownApp(let id): "unknown app '\(id)': no route file declares it"
        case .noApp(let url): "no app claims the scheme or domain of '\(url)'"
        case .ambiguousApp(let url, let candidates):
            "'\(url)' is claimed by several apps: \(candidates.joined(separator: ", "))"
        case .invalidURL(let url, let reason): "invalid URL '\(url)': \(reason)"
        case .noRoute(let input, let reason): "no route for '\(input)': \(reason)"
        case .invalidPayload(let reason): "invalid payload: \(reason)"
        case .invalidParameter(let name, let value, let reason):
            if let value { "invalid parameter '\(name)' = '\(value)': \(reason)" } else { "invalid parameter '\(name)': \(reason)" }
        case .unknownShortcut(let app, let type): "app '\(app)' has no shortcut '\(type)'"
        case .shortcutUnavailable(let app, let type): "shortcut '\(type)' of app '\(app)' is not published"
        case .unsupported(let what): "unsupported: \(what)"
        case .tooLarge(let what, let size, let limit): "\(what) is too large: \(size) > \(limit)"
        case .accessDenied(let why): "access denied: \(why)"
        case .invalidConfig(let what): "invalid configuration: \(what)"
        case .storageFailed(let what): "the change could not be stored, nothing was acknowledged: \(what)"
        }
    }
}
