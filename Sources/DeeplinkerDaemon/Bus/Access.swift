import DBusKit
import DeeplinkerCore

/// Who may call a method: the access column of the method table (SPEC §3 "Callers"). Host
/// processes may call everything; a sandboxed app as below. The dispatcher checks it before the
/// handler runs, from the call's raw arguments (the app asked for is always the first).
enum Access: Sendable {
    /// Anyone: `OpenURL`, `ContinueActivity`, `ResolveURL`, `GetLinkClaims`.
    case everyone
    /// A sandboxed app only for its own app id (the `app_id` argument).
    case ownApp
    /// `GetHistory`: its own app, and `""` (every app) shows a sandboxed app only its own.
    case ownAppOrAll
    /// `ListApps`: every app for a host process, a sandboxed app only its own.
    case filtered
    /// `GetInvocation`: a sandboxed app only of its own app id, checked by the handler once the
    /// invocation (and so its app) is read.
    case ownInvocation
    /// `Reload`, `SetFocusedApp`, `SetDomainVerification`.
    case hostOnly
    /// `Invoke`: as the method of its source (`url` and `activity` as `OpenURL`, else own app).
    case bySource

    /// The apps a call may see: all, or the sandboxed caller's own (none when unidentified).
    enum Scope: Sendable, Equatable {
        case all
        case only(String?)

        func contains(_ appID: String) -> Bool {
            if case .only(let own) = self { own == appID } else { true }
        }
    }

    /// Whether every caller gets the same answer from `check` for these arguments: methods open to
    /// everyone, and `Invoke` of a URL or an activity. Such calls need not wait for the caller.
    func isOpenToEveryone(arguments: [DBusValue]) -> Bool {
        switch self {
        case .everyone: true
        case .bySource: ["url", "activity"].contains(arguments.count > 1 ? arguments[1].stringValue ?? "" : "")
        case .ownApp, .ownAppOrAll, .filtered, .hostOnly, .ownInvocation: false
        }
    }

    /// Throws `AccessDenied` naming the method, the caller's app id and the app asked for.
    func check(_ method: String, caller: Caller, arguments: [DBusValue]) throws(DeeplinkerError) -> Scope {
        guard case .sandboxed(let own) = caller else { return .all }
        let asked = arguments.first?.stringValue ?? ""
        func denied(_ why: String) -> DeeplinkerError {
            .accessDenied("\(method) \(why); the caller is \(caller) (app id '\(own ?? "")')")
        }
        switch self {
        case .everyone:
            return .all
        case .filtered, .ownInvocation:
            return .only(own)
        case .hostOnly:
            throw denied("is for host processes only")
        case .ownAppOrAll where asked.isEmpty:
            return .only(own)
        case .bySource where ["url", "activity"].contains(arguments.count > 1 ? arguments[1].stringValue ?? "" : ""):
            return .all
        case .ownApp, .ownAppOrAll, .bySource:
            guard let own, own == asked else { throw denied("for app '\(asked)' is not allowed") }
            return .only(own)
        }
    }
}
