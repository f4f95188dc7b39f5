import DBusKit
import DeeplinkerCore
import DeeplinkerProtocol

/// The handlers of the invocation methods: route and record through `DaemonCore.invoke`, answer
/// once the invocation is durable.
extension Daemon {
    static func openURL(_ call: DBusMethodCall, _ s: [String], _ core: isolated DaemonCore) {
        let (app, url) = (s[0], s[1])
        let source = invokeSource("url", input: url)
        // With no app id, a refusal is recorded for the app that claims the URL, if exactly one does.
        let claimant = app.isEmpty ? (try? ValidatedURL(url)).flatMap { try? core.registry.app(for: $0) } : nil
        let (result, commit) = core.invoke(appID: app, kind: "url", input: url, source: source, platformData: [:], recordAs: claimant) {
            (registry, _) throws(DeeplinkerError) in .route(try registry.resolveURL(appID: app, url: url))
        }
        MethodCallReplies.answer(call, result, after: commit, MethodCallReplies.route)
    }

    static func activateNotification(_ call: DBusMethodCall, _ s: [String], _ core: isolated DaemonCore) {
        let (app, payload, action) = (s[0], s[1], s[2])
        let data = action.isEmpty ? [:] : [PlatformDataKey.notificationAction: action]
        let (result, commit) = core.invoke(appID: app, kind: "notification", input: payload, source: .notification, platformData: data) {
            (registry, _) throws(DeeplinkerError) in .route(try registry.resolveNotification(appID: app, payloadJSON: payload))
        }
        MethodCallReplies.answer(call, result, after: commit, MethodCallReplies.route)
    }

    static func performShortcut(_ call: DBusMethodCall, _ s: [String], _ core: isolated DaemonCore) {
        let (app, type) = (s[0], s[1])
        let (result, commit) = core.invoke(appID: app, kind: "shortcut", input: type, source: .shortcut, platformData: [:]) {
            (registry, published) throws(DeeplinkerError) in
            .route(try registry.resolveShortcut(appID: app, type: type, publishedShortcuts: published))
        }
        MethodCallReplies.answer(call, result, after: commit, MethodCallReplies.route)
    }

    static func continueActivity(_ call: DBusMethodCall, _ s: [String], _ core: isolated DaemonCore) {
        let (app, type, url) = (s[0], s[1], s[2])
        let (result, commit) = core.invoke(
            appID: app, kind: "activity", input: DedupeKey.activityInput(type: type, webpageURL: url), source: .activity,
            platformData: [PlatformDataKey.activityType: type]
        ) { (registry, _) throws(DeeplinkerError) in
            try registry.resolveActivity(appID: app, activityType: type, webpageURL: url)
        }
        MethodCallReplies.answer(call, result, after: commit, MethodCallReplies.route)
    }

    static func launch(_ call: DBusMethodCall, _ s: [String], _ core: isolated DaemonCore) {
        let (app, options) = (s[0], s[1])
        let classification = try? LaunchClassifier.classify(options)
        let (result, commit) = core.invoke(
            appID: app, kind: "launch", input: options, source: source(of: classification),
            platformData: [:], launchKind: classification?.kind.rawValue
        ) { (registry, published) throws(DeeplinkerError) in
            try registry.resolveLaunch(appID: app, optionsJSON: options, publishedShortcuts: published).resolution
        }
        MethodCallReplies.answer(call, result, after: commit) { reply in
            [.string(reply.kind ?? "")] + MethodCallReplies.route(reply)
        }
    }

    static func invoke(_ call: DBusMethodCall, _ s: [String], _ core: isolated DaemonCore) {
        let (app, source, input) = (s[0], s[1], s[2])
        let recorded = invokeSource(source, input: input)
        // With no app id, a refused URL is recorded for the app that claims it, if exactly one does.
        let claimant = app.isEmpty && source == "url" ? (try? ValidatedURL(input)).flatMap { try? core.registry.app(for: $0) } : nil
        let data: [String: String]
        do throws(DeeplinkerError) {
            data = try platformData(call.arguments[3])
        } catch {
            let commit = core.reject(appID: app, source: recorded, error: error, recordAs: claimant)
            return MethodCallReplies.answer(call, Result<InvocationReply, DeeplinkerError>.failure(error), after: commit, MethodCallReplies.route)
        }
        let kind = source == "activity" ? "activity" : source
        let dedupeInput = source == "activity"
            ? DedupeKey.activityInput(type: data[PlatformDataKey.activityType] ?? "browsing-web", webpageURL: input) : input
        let (result, commit) = core.invoke(
            appID: app, kind: kind, input: dedupeInput, source: recorded, platformData: data, recordAs: claimant
        ) { (registry, published) throws(DeeplinkerError) in
            try registry.resolveInvoke(appID: app, source: source, input: input, platformData: data, publishedShortcuts: published)
        }
        MethodCallReplies.answer(call, result, after: commit, MethodCallReplies.route)
    }

    /// The source an `Invoke` (or an `OpenURL`, as source `url`) is recorded with.
    static func invokeSource(_ source: String, input: String) -> Source {
        switch source {
        case "notification": .notification
        case "shortcut": .shortcut
        case "activity": .activity
        case "launch": Self.source(of: try? LaunchClassifier.classify(input))
        default: input.lowercased().hasPrefix("https:") ? .universalLink : .url
        }
    }

    /// The source a refused launch is recorded with.
    static func source(of classification: LaunchClassification?) -> Source {
        switch classification?.kind {
        case .notification: .notification
        case .shortcut: .shortcut
        default: .url
        }
    }

    /// `Invoke`'s `platform_data`: known keys must be strings; unknown keys are ignored.
    static func platformData(_ value: DBusValue) throws(DeeplinkerError) -> [String: String] {
        let entries = value.variantDictionaryValue ?? [:]
        var data: [String: String] = [:]
        for key in [PlatformDataKey.activationToken, PlatformDataKey.desktopStartupID, PlatformDataKey.action, PlatformDataKey.activityType] {
            guard let entry = entries[key] else { continue }
            guard case .string(let text) = entry else {
                throw .invalidParameter(name: "platform_data." + key, value: entry.signature, reason: "must be a string (s)")
            }
            guard text.utf8.count <= Limits.stringArgumentBytes else {
                throw .tooLarge(what: "platform_data." + key, size: text.utf8.count, limit: Limits.stringArgumentBytes)
            }
            data[key == PlatformDataKey.action ? PlatformDataKey.notificationAction : key] = text
        }
        return data
    }
}
