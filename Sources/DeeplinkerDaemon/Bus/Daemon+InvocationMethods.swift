import DBusKit
import DeeplinkerCore
import DeeplinkerProtocol

/// The handlers of the invocation methods: route and record through `DaemonCore.invoke`; the
/// reply (a refusal too, once recorded) waits for the commit.
extension Daemon {
    static func openURL(_ a: In.AppURL, _ c: CallContext, _ core: isolated DaemonCore) -> Reply<Out.Route> {
        let (result, commit) = core.invoke(
            appID: a.appID, kind: "url", input: a.url, source: invokeSource("url", input: a.url), platformData: [:],
            recordAs: { core.claimant(of: a.url) }
        ) { (registry, _) throws(DeeplinkerError) in .route(try registry.resolveURL(appID: a.appID, url: a.url)) }
        return .afterCommit(result.map(Out.Route.init), commit)
    }

    static func activateNotification(_ a: In.NotificationClick, _ c: CallContext, _ core: isolated DaemonCore) -> Reply<Out.Route> {
        let data = a.action.isEmpty ? [:] : [PlatformDataKey.notificationAction: a.action]
        let (result, commit) = core.invoke(appID: a.appID, kind: "notification", input: a.payload, source: .notification, platformData: data) {
            (registry, _) throws(DeeplinkerError) in .route(try registry.resolveNotification(appID: a.appID, payloadJSON: a.payload))
        }
        return .afterCommit(result.map(Out.Route.init), commit)
    }

    static func performShortcut(_ a: In.Shortcut, _ c: CallContext, _ core: isolated DaemonCore) -> Reply<Out.Route> {
        let (result, commit) = core.invoke(appID: a.appID, kind: "shortcut", input: a.type, source: .shortcut, platformData: [:]) {
            (registry, published) throws(DeeplinkerError) in
            .route(try registry.resolveShortcut(appID: a.appID, type: a.type, publishedShortcuts: published))
        }
        return .afterCommit(result.map(Out.Route.init), commit)
    }

    static func continueActivity(_ a: In.Activity, _ c: CallContext, _ core: isolated DaemonCore) -> Reply<Out.Route> {
        let (result, commit) = core.invoke(
            appID: a.appID, kind: "activity", input: DedupeKey.activityInput(type: a.type, webpageURL: a.url), source: .activity,
            platformData: [PlatformDataKey.activityType: a.type]
        ) { (registry, _) throws(DeeplinkerError) in
            try registry.resolveActivity(appID: a.appID, activityType: a.type, webpageURL: a.url)
        }
        return .afterCommit(result.map(Out.Route.init), commit)
    }

    static func launch(_ a: In.LaunchOptions, _ c: CallContext, _ core: isolated DaemonCore) -> Reply<Out.Launch> {
        let classification = try? LaunchClassifier.classify(a.options)
        let (result, commit) = core.invoke(
            appID: a.appID, kind: "launch", input: a.options, source: source(of: classification),
            platformData: [:], launchKind: classification?.kind.rawValue
        ) { (registry, published) throws(DeeplinkerError) in
            try registry.resolveLaunch(appID: a.appID, optionsJSON: a.options, publishedShortcuts: published).resolution
        }
        return .afterCommit(result.map(Out.Launch.init), commit)
    }

    static func invoke(_ a: In.Invocation, _ c: CallContext, _ core: isolated DaemonCore) -> Reply<Out.Route> {
        let recorded = invokeSource(a.source, input: a.input)
        // With no app id, a refused URL is recorded for the app that claims it, if exactly one does.
        let claimant = { a.source == "url" ? core.claimant(of: a.input) : nil }
        let data: [String: String]
        do throws(DeeplinkerError) {
            data = try platformData(a.platformData)
        } catch {
            return .afterCommit(.failure(error), core.reject(appID: a.appID, source: recorded, error: error, recordAs: claimant))
        }
        let kind = a.source == "activity" ? "activity" : a.source
        let dedupeInput = a.source == "activity"
            ? DedupeKey.activityInput(type: data[PlatformDataKey.activityType] ?? "browsing-web", webpageURL: a.input) : a.input
        let (result, commit) = core.invoke(
            appID: a.appID, kind: kind, input: dedupeInput, source: recorded, platformData: data, recordAs: claimant
        ) { (registry, published) throws(DeeplinkerError) in
            try registry.resolveInvoke(appID: a.appID, source: a.source, input: a.input, platformData: data, publishedShortcuts: published)
        }
        return .afterCommit(result.map(Out.Route.init), commit)
    }

    /// The source an `Invoke` (or an `OpenURL`, as source `url`) is recorded with.
    static func invokeSource(_ source: String, input: String) -> Source {
        switch source {
        case "notification": .notification
        case "shortcut": .shortcut
        case "activity": .activity
        case "launch": Self.source(of: try? LaunchClassifier.classify(input))
        default: ValidatedURL.isWeb(input) ? .universalLink : .url
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
            try ArgumentReader.checkSize(text, "platform_data." + key)
            data[key == PlatformDataKey.action ? PlatformDataKey.notificationAction : key] = text
        }
        return data
    }
}
