import DBusKit
import DeeplinkerCore

extension Daemon {
    static func arg(_ name: String, _ signature: String) -> DBusArgument { DBusArgument(name, signature) }

    static let routeReply = [arg("invocation_id", "s"), arg("target", "s"), arg("parameters", "a{ss}")]

    /// Every method of `org.deeplinker.Deeplinker1`, in SPEC §3's order: one entry each.
    static let methodTable: [DaemonMethod] = [
        // Invocations: reply once the invocation is durably stored.
        DaemonMethod(
            "OpenURL", in: [arg("app_id", "s"), arg("url", "s")], out: routeReply,
            "Routes a custom-scheme or https link; app_id \"\" finds the app by scheme or domain.",
            refusalSource: { invokeSource("url", input: $0[1].stringValue ?? "") }, handler: openURL),
        DaemonMethod(
            "ActivateNotification", in: [arg("app_id", "s"), arg("payload_json", "s"), arg("action", "s")], out: routeReply,
            "Routes a click on a notification (action \"default\" for its body).",
            refusalSource: { _ in .notification }, handler: activateNotification),
        DaemonMethod(
            "PerformShortcut", in: [arg("app_id", "s"), arg("shortcut_type", "s")], out: routeReply,
            "Routes a launcher quick action.",
            refusalSource: { _ in .shortcut }, handler: performShortcut),
        DaemonMethod(
            "ContinueActivity", in: [arg("app_id", "s"), arg("activity_type", "s"), arg("webpage_url", "s")], out: routeReply,
            "Routes a web activity (browsing-web); an empty URL restores the last route if the app allows it.",
            refusalSource: { _ in .activity }, handler: continueActivity),
        DaemonMethod(
            "Launch", in: [arg("app_id", "s"), arg("launch_options_json", "s")], out: [arg("kind", "s")] + routeReply,
            "Classifies launch options, routes them, and starts or raises the app.",
            refusalSource: { _ in .url }, handler: launch),
        DaemonMethod(
            "Invoke", in: [arg("app_id", "s"), arg("source", "s"), arg("input", "s"), arg("platform_data", "a{sv}")], out: routeReply,
            "The general form of the invocation methods, with platform data (activation token, startup id, action, activity type).",
            refusalSource: { arguments in
                arguments[1].stringValue.map { $0.utf8.count <= Limits.stringArgumentBytes ? invokeSource($0, input: "") : .url } ?? .url
            }, handler: invoke),
        // Queries and control.
        DaemonMethod(
            "GetPending", in: [arg("app_id", "s")],
            out: [
                arg("present", "b"), arg("invocation_id", "s"), arg("source", "s"), arg("target", "s"), arg("parameters", "a{ss}"),
                arg("received_at_usec", "x"),
            ],
            "The app's pending deeplink, also while its delivery is in flight.", handler: getPending),
        DaemonMethod(
            "DiscardPending", in: [arg("app_id", "s")], out: [arg("discarded", "b")],
            "Discards the app's pending deeplink.", handler: discardPending),
        DaemonMethod(
            "ResolveURL", in: [arg("app_id", "s"), arg("url", "s")],
            out: [arg("app_id", "s"), arg("target", "s"), arg("parameters", "a{ss}"), arg("route_pattern", "s")],
            "Routes a URL without storing anything (a dry run).", handler: resolveURL),
        DaemonMethod(
            "GetAppState", in: [arg("app_id", "s")], out: [arg("state", "s")],
            "not-running, inactive, active or background.", handler: getAppState),
        DaemonMethod(
            "SetAppState", in: [arg("app_id", "s"), arg("state", "s")],
            "The lifecycle signals as a method, from the app's name owner; replies before any delivery.", handler: setAppState),
        DaemonMethod("ListApps", in: [], out: [arg("app_ids", "as")], "The configured app ids.", handler: listApps),
        DaemonMethod(
            "GetHistory", in: [arg("app_id", "s"), arg("limit", "u")], out: [arg("invocations", "a(sssssx)")],
            "Invocations, newest first: (id, app, source, target, status, received at µs); app \"\" = all, limit 0 = all kept.",
            handler: getHistory),
        DaemonMethod(
            "SetShortcuts", in: [arg("app_id", "s"), arg("shortcut_types", "as")],
            "Publishes exactly these configured shortcuts (and rewrites the written desktop entry's actions).",
            handler: setShortcuts),
        DaemonMethod(
            "PostNotification", in: [arg("app_id", "s"), arg("summary", "s"), arg("body", "s"), arg("payload_json", "s")],
            out: [arg("notification_id", "u")],
            "Shows a notification whose click routes the payload.", handler: postNotification),
        DaemonMethod("Reload", in: [], "Re-reads the route files; a broken file keeps its app's routes and is reported.", handler: reload),
    ]
}
