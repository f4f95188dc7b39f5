import DBusKit
import DeeplinkerCore
import Foundation
import DeeplinkerProtocol

/// The handlers of `org.deeplinker.Deeplinker1`: decode arguments, run the core on the event queue,
/// answer through `MethodCallReplies`.
extension Daemon {
    typealias Handler = @Sendable (DBusMethodCall, [String], isolated DaemonCore) -> Void

    func handler(for name: String) -> @Sendable (DBusMethodCall) -> Void {
        let events = self.events
        let method = DeeplinkerAPI.methods.first { $0.name == name }!
        let body = Self.body(for: name, store: store)
        return { call in
            // Every string argument is limited to 64 KiB (SPEC §4) before any work is done.
            var strings: [String] = []
            for (index, value) in call.arguments.enumerated() {
                if let items = value.stringArray, let item = items.first(where: { $0.utf8.count > Limits.stringArgumentBytes }) {
                    let argument = method.inputs[index].name
                    return call.fail(DeeplinkerError.tooLarge(
                        what: "an element of argument '\(argument)'", size: item.utf8.count, limit: Limits.stringArgumentBytes).dbusError)
                }
                guard case .string(let s) = value else { continue }
                if s.utf8.count > Limits.stringArgumentBytes {
                    let argument = method.inputs[index].name
                    let error = DeeplinkerError.tooLarge(what: "argument '\(argument)'", size: s.utf8.count, limit: Limits.stringArgumentBytes)
                    // A refused invocation of a configured app is still recorded (`rejected`).
                    guard index > 0, let app = call.arguments[0].stringValue, let source = Self.refusalSource(name, call.arguments)
                    else { return call.fail(error.dbusError) }
                    return events.submit { core in
                        let (result, commit) = core.invoke(appID: app, kind: "", input: "", source: source, platformData: [:]) {
                            _, _ throws(DeeplinkerError) in throw error
                        }
                        MethodCallReplies.answer(call, result, after: commit, MethodCallReplies.route)
                    }
                }
                strings.append(s)
            }
            let arguments = strings
            events.submit { core in body(call, arguments, core) }
        }
    }

    private static func body(for name: String, store: any InvocationStore) -> Handler {
        switch name {
        case "OpenURL":
            return { call, s, core in
                let (app, url) = (s[0], s[1])
                let source = Self.invokeSource("url", input: url)
                // With no app id, a refusal is recorded for the app that claims the URL, if exactly one does.
                let claimant = app.isEmpty ? (try? ValidatedURL(url)).flatMap { try? core.registry.app(for: $0) } : nil
                let (result, commit) = core.invoke(appID: app, kind: "url", input: url, source: source, platformData: [:], recordAs: claimant) {
                    (registry, _) throws(DeeplinkerError) in .route(try registry.resolveURL(appID: app, url: url))
                }
                MethodCallReplies.answer(call, result, after: commit, MethodCallReplies.route)
            }
        case "ActivateNotification":
            return { call, s, core in
                let (app, payload, action) = (s[0], s[1], s[2])
                let data = action.isEmpty ? [:] : [PlatformDataKey.notificationAction: action]
                let (result, commit) = core.invoke(appID: app, kind: "notification", input: payload, source: .notification, platformData: data) {
                    (registry, _) throws(DeeplinkerError) in .route(try registry.resolveNotification(appID: app, payloadJSON: payload))
                }
                MethodCallReplies.answer(call, result, after: commit, MethodCallReplies.route)
            }
        case "PerformShortcut":
            return { call, s, core in
                let (app, type) = (s[0], s[1])
                let (result, commit) = core.invoke(appID: app, kind: "shortcut", input: type, source: .shortcut, platformData: [:]) {
                    (registry, published) throws(DeeplinkerError) in
                    .route(try registry.resolveShortcut(appID: app, type: type, publishedShortcuts: published))
                }
                MethodCallReplies.answer(call, result, after: commit, MethodCallReplies.route)
            }
        case "ContinueActivity":
            return { call, s, core in
                let (app, type, url) = (s[0], s[1], s[2])
                let (result, commit) = core.invoke(
                    appID: app, kind: "activity", input: DedupeKey.activityInput(type: type, webpageURL: url), source: .activity,
                    platformData: [PlatformDataKey.activityType: type]
                ) { (registry, _) throws(DeeplinkerError) in
                    try registry.resolveActivity(appID: app, activityType: type, webpageURL: url)
                }
                MethodCallReplies.answer(call, result, after: commit, MethodCallReplies.route)
            }
        case "Launch":
            return { call, s, core in
                let (app, options) = (s[0], s[1])
                let classification = try? LaunchClassifier.classify(options)
                let (result, commit) = core.invoke(
                    appID: app, kind: "launch", input: options, source: Self.source(of: classification),
                    platformData: [:], launchKind: classification?.kind.rawValue
                ) { (registry, published) throws(DeeplinkerError) in
                    try registry.resolveLaunch(appID: app, optionsJSON: options, publishedShortcuts: published).resolution
                }
                MethodCallReplies.answer(call, result, after: commit) { reply in
                    [.string(reply.kind ?? "")] + MethodCallReplies.route(reply)
                }
            }
        case "Invoke":
            return { call, s, core in
                let (app, source, input) = (s[0], s[1], s[2])
                let recorded = Self.invokeSource(source, input: input)
                // With no app id, a refused URL is recorded for the app that claims it, if exactly one does.
                let claimant = app.isEmpty && source == "url"
                    ? (try? ValidatedURL(input)).flatMap { try? core.registry.app(for: $0) } : nil
                let data: [String: String]
                do throws(DeeplinkerError) {
                    data = try Self.platformData(call.arguments[3])
                } catch {
                    let (result, commit) = core.invoke(
                        appID: app, kind: "", input: "", source: recorded, platformData: [:], recordAs: claimant
                    ) { _, _ throws(DeeplinkerError) in throw error }
                    return MethodCallReplies.answer(call, result, after: commit, MethodCallReplies.route)
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
        case "GetPending":
            return { call, s, core in
                let result = Result { () throws(DeeplinkerError) in try core.pending(appID: s[0]) }
                MethodCallReplies.answer(call, result) { invocation in
                    guard let invocation, let route = invocation.route else {
                        return [.boolean(false), .string(""), .string(""), .string(""), .stringDictionary([:]), .int64(0)]
                    }
                    return [
                        .boolean(true), .string(invocation.id), .string(route.source.rawValue), .string(route.target),
                        .stringDictionary(route.parameters), .int64(invocation.receivedAt),
                    ]
                }
            }
        case "DiscardPending":
            return { call, s, core in
                do throws(DeeplinkerError) {
                    let (discarded, commit) = try core.discardPending(appID: s[0])
                    MethodCallReplies.answer(call, .success(discarded), after: commit) { [.boolean($0)] }
                } catch {
                    call.fail(error.dbusError)
                }
            }
        case "ResolveURL":
            return { call, s, core in
                let result = Result { () throws(DeeplinkerError) in try core.registry.resolveURL(appID: s[0], url: s[1]) }
                MethodCallReplies.answer(call, result) { resolved in
                    [.string(resolved.appID), .string(resolved.route.target), .stringDictionary(resolved.route.parameters), .string(resolved.routePattern ?? "")]
                }
            }
        case "GetAppState":
            return { call, s, core in
                MethodCallReplies.answer(call, Result { () throws(DeeplinkerError) in try core.appState(s[0]) }) { [.string($0.rawValue)] }
            }
        case "SetAppState":
            return { call, s, core in
                let result = Result { () throws(DeeplinkerError) in try core.setAppState(s[0], state: s[1], sender: call.sender) }
                MethodCallReplies.answer(call, result) { _ in [] }
            }
        case "ListApps":
            return { call, _, core in call.reply([.strings(core.registry.appIDs)]) }
        case "GetHistory":
            return { call, s, core in
                let app = s[0]
                let limit = call.arguments[1].uint32Value ?? 0
                if !app.isEmpty && !core.registry.appIDs.contains(app) && !core.engine.knownApps.contains(app) {
                    return call.fail(DeeplinkerError.unknownApp(app).dbusError)
                }
                Task {
                    do {
                        let rows = try await store.history(appID: app.isEmpty ? nil : app, limit: Int(limit))
                        call.reply([.array(elementSignature: "(sssssx)", rows.map { row in
                            .structure([
                                .string(row.id), .string(row.appID), .string(row.route?.source.rawValue ?? row.source.rawValue),
                                .string(row.route?.target ?? ""), .string(row.status.rawValue), .int64(row.receivedAt),
                            ])
                        })])
                    } catch {
                        call.fail(.failed("history could not be read: \(error)"))
                    }
                }
            }
        case "SetShortcuts":
            return { call, s, core in
                let types = call.arguments[1].stringArray ?? []
                do throws(DeeplinkerError) {
                    let commit = try core.setShortcuts(appID: s[0], types: types)
                    let rewrite = core.rewriteDesktopActions(appID: s[0], types: types)
                    MethodCallReplies.answer(call, .success(()), after: commit, beforeReply: rewrite) { _ in [] }
                } catch {
                    call.fail(error.dbusError)
                }
            }
        case "PostNotification":
            return { call, s, core in
                let (app, summary, body, payload) = (s[0], s[1], s[2], s[3])
                let appName: String
                do throws(DeeplinkerError) {
                    appName = try core.notificationAppName(appID: app, payload: payload)
                } catch {
                    return call.fail(error.dbusError)
                }
                // The id is remembered as the reply is dispatched, so a click right behind it routes.
                NotificationServer.notify(core.connection, appID: app, appName: appName, summary: summary, body: body) { result in
                    switch result {
                    case .success(let id):
                        core.onLoop { core in
                            let commit = core.rememberNotification(id: id, appID: app, payload: payload)
                            MethodCallReplies.answer(call, Result<UInt32, DeeplinkerError>.success(id), after: commit) { [.uint32($0)] }
                        }
                    case .failure(let error):
                        call.fail(DeeplinkerError.unsupported("the notification server refused: \(error.name): \(error.message)").dbusError)
                    }
                }
            }
        case "Reload":
            return { call, _, core in
                let result = Result { () throws(DeeplinkerError) in try core.reload() }
                // Answered once new apps' names are watched: the caller may start one right away.
                core.afterNameWatches { MethodCallReplies.answer(call, result) { _ in [] } }
            }
        default:
            return { call, _, _ in call.fail(.failed("\(name) is not implemented")) }
        }
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

    /// The source a call refused before routing (an oversized argument) is recorded with; nil for
    /// methods that are not invocations.
    static func refusalSource(_ method: String, _ arguments: [DBusValue]) -> Source? {
        switch method {
        case "OpenURL": invokeSource("url", input: arguments[1].stringValue ?? "")
        case "ActivateNotification": .notification
        case "PerformShortcut": .shortcut
        case "ContinueActivity": .activity
        case "Launch": .url
        case "Invoke":
            (arguments[1].stringValue).map { $0.utf8.count <= Limits.stringArgumentBytes ? invokeSource($0, input: "") : .url } ?? .url
        default: nil
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
