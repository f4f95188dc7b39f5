/// Who is calling the daemon, as SPEC §3 "Callers" tells callers apart: a host process of the
/// user, or a sandboxed app (a Flatpak with its app id, a Snap with none).
public enum CallerIdentity: Sendable, Hashable, CustomStringConvertible {
    case host
    /// A sandboxed app; `appID` is nil when no app id is known reliably (a Snap, or a caller whose
    /// kind could not be read).
    case sandboxed(appID: String?)

    /// The app id a sandboxed caller owns, if any.
    public var appID: String? {
        if case .sandboxed(let appID) = self { appID } else { nil }
    }

    public var isSandboxed: Bool { self != .host }

    public var description: String {
        switch self {
        case .host: "host process"
        case .sandboxed(let appID?): "sandboxed app \(appID)"
        case .sandboxed(nil): "sandboxed app without an app id"
        }
    }
}

/// The answer to one lookup: the identity, and why it is `.sandboxed(appID: nil)` when the
/// caller's kind could not be read (for the log; nil when it was read).
public struct CallerLookup: Sendable, Hashable, CustomStringConvertible {
    public let identity: CallerIdentity
    public let reason: String?

    public init(_ identity: CallerIdentity, reason: String? = nil) {
        self.identity = identity
        self.reason = reason
    }

    /// A caller whose kind cannot be read: treated as sandboxed with no app id.
    public static func unknown(_ reason: String) -> CallerLookup {
        CallerLookup(.sandboxed(appID: nil), reason: reason)
    }

    public var description: String {
        reason.map { "\(identity) (\($0))" } ?? identity.description
    }
}
