/// The answer to one lookup: the identity, and why it is `.sandboxed(appID: nil)` when the
/// caller's kind could not be read (for the log; nil when it was read).
public struct CallerLookup: Sendable, Hashable, CustomStringConvertible {
    public let identity: Caller
    public let reason: String?

    public init(_ identity: Caller, reason: String? = nil) {
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
