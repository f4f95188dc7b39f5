import DBusKit
import DeeplinkerCore

/// The handlers of the queries and control methods.
extension Daemon {
    static func getPending(_ a: In.App, _ c: CallContext, _ core: isolated DaemonCore) throws(DeeplinkerError) -> Reply<Out.Pending> {
        .value(Out.Pending(invocation: try core.pending(appID: a.appID)))
    }

    static func discardPending(_ a: In.App, _ c: CallContext, _ core: isolated DaemonCore) throws(DeeplinkerError) -> Reply<Out.Discarded> {
        let (discarded, commit) = try core.discardPending(appID: a.appID)
        return .afterCommit(.success(Out.Discarded(discarded: discarded)), commit)
    }

    static func resolveURL(_ a: In.AppURL, _ c: CallContext, _ core: isolated DaemonCore) throws(DeeplinkerError) -> Reply<Out.Resolved> {
        .value(Out.Resolved(resolved: try core.registry.resolveURL(appID: a.appID, url: a.url)))
    }

    static func getAppState(_ a: In.App, _ c: CallContext, _ core: isolated DaemonCore) throws(DeeplinkerError) -> Reply<Out.State> {
        .value(Out.State(state: try core.appState(a.appID)))
    }

    static func setAppState(_ a: In.AppState, _ c: CallContext, _ core: isolated DaemonCore) throws(DeeplinkerError) -> Reply<Out.None> {
        // SPEC §3: it replies before any delivery it frees starts (the app may be single-threaded),
        // once its change is written, not synced: a refused write answers `StorageFailed` (SPEC §6).
        let (commit, release) = try core.setAppState(a.appID, state: a.state, sender: c.sender)
        let promise = ReplyPromise<Out.None>()
        commit.whenWritten { outcome in
            let result = outcome.map { Out.None() }.mapError { DeeplinkerError.storageFailed("\($0)") }
            promise.resolve(Reply(kind: .now(result, then: release)))
        }
        return .pending(promise)
    }

    static func listApps(_ a: In.None, _ c: CallContext, _ core: isolated DaemonCore) -> Reply<Out.AppIDs> {
        .value(Out.AppIDs(appIDs: core.registry.appIDs.filter(c.scope.contains)))
    }

    static func getHistory(_ a: In.History, _ c: CallContext, _ core: isolated DaemonCore) throws(DeeplinkerError) -> Reply<Out.History> {
        if !a.appID.isEmpty && !core.registry.contains(a.appID) && core.engine.policy(for: a.appID) == nil {
            throw .unknownApp(a.appID)
        }
        // A sandboxed caller's "every app" is its own app (none when it could not be identified).
        let app: String?
        switch (a.appID, c.scope) {
        case ("", .all): app = nil
        case ("", .only(let own)): guard let own else { return .value(Out.History(rows: [])) }; app = own
        default: app = a.appID
        }
        let (store, limit, promise) = (core.store, Int(a.limit), ReplyPromise<Out.History>())
        core.track { _ in
            do {
                promise.resolve(.success(Out.History(rows: try await store.historyEntries(appID: app, limit: limit))))
            } catch {
                promise.resolve(.failure(.storageFailed("history could not be read: \(error)")))
            }
        }
        return .pending(promise)
    }

    static func setShortcuts(_ a: In.Shortcuts, _ c: CallContext, _ core: isolated DaemonCore) throws(DeeplinkerError) -> Reply<Out.None> {
        let commit = try core.setShortcuts(appID: a.appID, types: a.types)
        // Once durable, the written desktop entry gets the shortcuts as its actions (SPEC §8), on a
        // thread of the pool (neither the bus thread nor the sync thread writes it); then the reply.
        let rewrite = core.rewriteDesktopActions(appID: a.appID, types: a.types)
        let promise = ReplyPromise<Out.None>()
        commit.whenResolved { outcome in
            guard case .success = outcome else { return promise.resolve(.afterCommit(.success(Out.None()), commit)) }
            Task.detached {
                rewrite()
                promise.resolve(.afterCommit(.success(Out.None()), commit))
            }
        }
        return .pending(promise)
    }

    static func postNotification(_ a: In.Notification, _ c: CallContext, _ core: isolated DaemonCore) throws(DeeplinkerError)
        -> Reply<Out.NotificationID>
    {
        let appName = try core.notificationAppName(appID: a.appID, payload: a.payload)
        let promise = ReplyPromise<Out.NotificationID>()
        NotificationServer.notify(core.connection, appID: a.appID, appName: appName, summary: a.summary, body: a.body) { result in
            switch result {
            case .success(let id):
                // The id is claimed before any later bus message is handled: a click right behind
                // the Notify reply is held until the record commits, then routes.
                core.onLoop { core in
                    let commit = core.rememberNotification(id: id, appID: a.appID, payload: a.payload)
                    promise.resolve(.afterCommit(.success(Out.NotificationID(id: id)), commit))
                }
            case .failure(let error):
                promise.resolve(.failure(.unsupported("the notification server refused: \(error.name): \(error.message)")))
            }
        }
        return .pending(promise)
    }

    static func reload(_ a: In.None, _ c: CallContext, _ core: isolated DaemonCore) -> Reply<Out.None> {
        let result = Result { () throws(DeeplinkerError) in try core.reload() }.map { Out.None() }
        let promise = ReplyPromise<Out.None>()
        // Answered once new apps' names are watched: the caller may start one right away.
        core.afterNameWatches { promise.resolve(result) }
        return .pending(promise)
    }
}
