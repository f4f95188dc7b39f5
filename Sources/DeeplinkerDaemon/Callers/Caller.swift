/// Who makes a call (SPEC §3 "Callers"), told from the process behind its connection.
public enum Caller: Sendable, Hashable, CustomStringConvertible {
    /// The user's own tools, launchers, the notification server, scripts.
    case host
    /// A Flatpak or Snap app; `appID` nil when it could not be told which (or the kind could not
    /// be read at all, which is treated the same way).
    case sandboxed(appID: String?)

    public var isHost: Bool { self == .host }
    public var isSandboxed: Bool { self != .host }

    /// The one app a sandboxed caller may act for (nil for a host process or an unidentified app).
    public var appID: String? {
        if case .sandboxed(let id) = self { id } else { nil }
    }

    public var description: String {
        switch self {
        case .host: "a host process"
        case .sandboxed(let id?): "sandboxed app '\(id)'"
        case .sandboxed(nil): "an unidentified sandboxed app"
        }
    }
}
