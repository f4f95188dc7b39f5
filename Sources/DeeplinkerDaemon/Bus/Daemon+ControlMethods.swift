import DBusKit
import DeeplinkerCore

/// The handlers of the queries and control methods.
extension Daemon {
    static func getPending(_ call: DBusMethodCall, _ s: [String], _ core: isolated DaemonCore) {
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

    static func discardPending(_ call: DBusMethodCall, _ s: [String], _ core: isolated DaemonCore) {
        do throws(DeeplinkerError) {
            let (discarded, commit) = try core.discardPending(appID: s[0])
            MethodCallReplies.answer(call, .success(discarded), after: commit) { [.boolean($0)] }
        } catch {
            call.fail(error.dbusError)
        }
    }

    static func resolveURL(_ call: DBusMethodCall, _ s: [String], _ core: isolated DaemonCore) {
        let result = Result { () throws(DeeplinkerError) in try core.registry.resolveURL(appID: s[0], url: s[1]) }
        MethodCallReplies.answer(call, result) { resolved in
            [
                .string(resolved.appID), .string(resolved.route.target), .stringDictionary(resolved.route.parameters),
                .string(resolved.routePattern ?? ""),
            ]
        }
    }

    static func getAppState(_ call: DBusMethodCall, _ s: [String], _ core: isolated DaemonCore) {
        MethodCallReplies.answer(call, Result { () throws(DeeplinkerError) in try core.appState(s[0]) }) { [.string($0.rawValue)] }
    }

    static func setAppState(_ call: DBusMethodCall, _ s: [String], _ core: isolated DaemonCore) {
        let result = Result { () throws(DeeplinkerError) in try core.setAppState(s[0], state: s[1], sender: call.sender) }
        MethodCallReplies.answer(call, result) { _ in [] }
    }

    static func listApps(_ call: DBusMethodCall, _ s: [String], _ core: isolated DaemonCore) {
        call.reply([.strings(core.registry.appIDs)])
    }

    static func getHistory(_ call: DBusMethodCall, _ s: [String], _ core: isolated DaemonCore) {
        let app = s[0]
        let limit = call.arguments[1].uint32Value ?? 0
        if !app.isEmpty && !core.registry.contains(app) && core.engine.policy(for: app) == nil {
            return call.fail(DeeplinkerError.unknownApp(app).dbusError)
        }
        let store = core.store
        core.track { _ in
            do {
                let rows = try await store.historyEntries(appID: app.isEmpty ? nil : app, limit: Int(limit))
                call.reply([.array(elementSignature: "(sssssx)", rows.map { row in
                    .structure([
                        .string(row.id), .string(row.appID), .string(row.source.rawValue),
                        .string(row.target), .string(row.status.rawValue), .int64(row.receivedAt),
                    ])
                })])
            } catch {
                call.fail(.failed("history could not be read: \(error)"))
            }
        }
    }

    static func setShortcuts(_ call: DBusMethodCall, _ s: [String], _ core: isolated DaemonCore) {
        let types = call.arguments[1].stringArray ?? []
        do throws(DeeplinkerError) {
            let commit = try core.setShortcuts(appID: s[0], types: types)
            let rewrite = core.rewriteDesktopActions(appID: s[0], types: types)
            MethodCallReplies.answer(call, .success(()), after: commit, beforeReply: rewrite) { _ in [] }
        } catch {
            call.fail(error.dbusError)
        }
    }

    static func postNotification(_ call: DBusMethodCall, _ s: [String], _ core: isolated DaemonCore) {
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

    static func reload(_ call: DBusMethodCall, _ s: [String], _ core: isolated DaemonCore) {
        let result = Result { () throws(DeeplinkerError) in try core.reload() }
        // Answered once new apps' names are watched: the caller may start one right away.
        core.afterNameWatches { MethodCallReplies.answer(call, result) { _ in [] } }
    }
}
