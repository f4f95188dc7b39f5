import DBusKit
import DeeplinkerCore

extension Daemon {
    /// Every method of `org.deeplinker.Deeplinker1`, in SPEC §3's order: one entry each, with its
    /// signature (the `In` and `Out` types), who may call it (SPEC §3 "Callers") and its handler.
    static let methodTable: [DaemonMethod] = [
        // Invocations: rate-limited for sandboxed callers; reply once the invocation is durably stored.
        DaemonMethod(
            "OpenURL", In.AppURL.self, Out.Route.self, access: .everyone,
            "Routes a custom-scheme or https link; app_id \"\" finds the app by scheme or domain.",
            refusalSource: { invokeSource("url", input: $0[1].stringValue ?? "") }, handler: openURL),
        DaemonMethod(
            "ActivateNotification", In.NotificationClick.self, Out.Route.self, access: .ownApp,
            "Routes a click on a notification (action \"default\" for its body).",
            refusalSource: { _ in .notification }, handler: activateNotification),
        DaemonMethod(
            "PerformShortcut", In.Shortcut.self, Out.Route.self, access: .ownApp, "Routes a launcher quick action.",
            refusalSource: { _ in .shortcut }, handler: performShortcut),
        DaemonMethod(
            "ContinueActivity", In.Activity.self, Out.Route.self, access: .everyone,
            "Routes a web activity (browsing-web); an empty URL restores the last route if the app allows it.",
            refusalSource: { _ in .activity }, handler: continueActivity),
        DaemonMethod(
            "Launch", In.LaunchOptions.self, Out.Launch.self, access: .ownApp,
            "Classifies launch options, routes them, and starts or raises the app.",
            refusalSource: { _ in .url }, handler: launch),
        DaemonMethod(
            "Invoke", In.Invocation.self, Out.Route.self, access: .bySource,
            "The general form of the invocation methods, with platform data (activation token, startup id, action, activity type).",
            refusalSource: { arguments in
                arguments[1].stringValue.map { $0.utf8.count <= Limits.stringArgumentBytes ? invokeSource($0, input: "") : .url } ?? .url
            }, handler: invoke),
        // Queries and control.
        DaemonMethod(
            "GetPending", In.App.self, Out.Pending.self, access: .ownApp,
            "The app's pending deeplink, also while its delivery is in flight.", handler: getPending),
        DaemonMethod(
            "DiscardPending", In.App.self, Out.Discarded.self, access: .ownApp,
            "Discards the app's pending deeplink.", handler: discardPending),
        DaemonMethod(
            "ResolveURL", In.AppURL.self, Out.Resolved.self, access: .everyone,
            "Routes a URL without storing anything (a dry run).", handler: resolveURL),
        DaemonMethod(
            "GetAppState", In.App.self, Out.State.self, access: .ownApp,
            "not-running, inactive, active or background.", handler: getAppState),
        DaemonMethod(
            "SetAppState", In.AppState.self, Out.None.self, access: .ownApp,
            "The lifecycle signals as a method, from the app's name owner; replies before any delivery.", handler: setAppState),
        DaemonMethod("ListApps", In.None.self, Out.AppIDs.self, access: .filtered, "The configured app ids.", handler: listApps),
        DaemonMethod(
            "GetHistory", In.History.self, Out.History.self, access: .ownAppOrAll,
            "Invocations, newest first: (id, app, source, target, status, received at µs); app \"\" = all, limit 0 = all kept.",
            handler: getHistory),
        DaemonMethod(
            "GetInvocation", In.InvocationID.self, Out.InvocationDetails.self, access: .ownInvocation,
            "One retained invocation (a{sv}: invocation-id, app-id, source, target, parameters, url, status, received-at, attempts, detail); UnknownInvocation when not retained.",
            handler: getInvocation),
        DaemonMethod(
            "SetShortcuts", In.Shortcuts.self, Out.None.self, access: .ownApp,
            "Publishes exactly these configured shortcuts (and rewrites the written desktop entry's actions).",
            handler: setShortcuts),
        DaemonMethod(
            "PostNotification", In.Notification.self, Out.NotificationID.self, access: .ownApp,
            "Shows a notification whose click routes the payload.", handler: postNotification),
        DaemonMethod(
            "Reload", In.None.self, Out.None.self, access: .hostOnly,
            "Re-reads the route files; a broken file keeps its app's routes and is reported.", handler: reload),
        DaemonMethod(
            "SetFocusedApp", In.App.self, Out.None.self, access: .hostOnly,
            "The app whose window has the input focus (\"\" for none), from deeplinker focus-watch: ready = \"focus\" apps follow it.",
            handler: setFocusedApp),
        DaemonMethod(
            "GetLinkClaims", In.None.self, Out.LinkClaims.self, access: .everyone,
            "Each app's claimed domains with the verdict of their last check (verified, not-listed, unreachable) or the user's (approved); unchecked with checked_at 0 when never checked.",
            handler: getLinkClaims),
        DaemonMethod(
            "SetDomainVerification", In.DomainVerification.self, Out.None.self, access: .hostOnly,
            "Records a check of an app's domain made by deeplinker verify (unreachable keeps an earlier verified verdict for 30 days), the user's approval (approved) or its revocation (unchecked); a check never replaces approved.",
            handler: setDomainVerification),
    ]

    /// The table's entries by name, for the dispatcher of in-process calls.
    static let methodsByName: [String: DaemonMethod] = Dictionary(uniqueKeysWithValues: methodTable.map { ($0.name, $0) })
}
