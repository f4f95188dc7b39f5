import DeeplinkerProtocol

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
    /// `GetInvocation` of an id the daemon does not retain (never seen, or trimmed from history).
    case unknownInvocation(String)
    case unsupported(String)
    case tooLarge(what: String, size: Int, limit: Int)
    case accessDenied(String)
    case invalidConfig(String)
    /// A sandboxed connection made more invocations in one second than it may; the text says how many.
    case rateLimited(String)
    /// The invocation could not be stored (disk full, I/O error, read-only or locked database);
    /// nothing was acknowledged. The text says what failed.
    case storageFailed(String)

    /// The error's short name, the last component of its D-Bus error name.
    public var name: String { errorName.rawValue }

    public var errorName: DeeplinkerErrorName {
        switch self {
        case .unknownApp: .unknownApp
        case .noApp: .noApp
        case .ambiguousApp: .ambiguousApp
        case .invalidURL: .invalidURL
        case .noRoute: .noRoute
        case .invalidPayload: .invalidPayload
        case .invalidParameter: .invalidParameter
        case .unknownShortcut: .unknownShortcut
        case .shortcutUnavailable: .shortcutUnavailable
        case .unknownInvocation: .unknownInvocation
        case .unsupported: .unsupported
        case .tooLarge: .tooLarge
        case .accessDenied: .accessDenied
        case .invalidConfig: .invalidConfig
        case .rateLimited: .rateLimited
        case .storageFailed: .storageFailed
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
        case .unknownInvocation(let id): "unknown invocation '\(id)': not retained in the history"
        case .unsupported(let what): "unsupported: \(what)"
        case .tooLarge(let what, let size, let limit): "\(what) is too large: \(size) > \(limit)"
        case .accessDenied(let why): "access denied: \(why)"
        case .invalidConfig(let what): "invalid configuration: \(what)"
        case .rateLimited(let what): "rate limited: \(what)"
        case .storageFailed(let what): "the change could not be stored, nothing was acknowledged: \(what)"
        }
    }
}
