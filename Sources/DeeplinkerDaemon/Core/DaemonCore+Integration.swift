import DBusKit
import DeeplinkerCore
import DeeplinkerProtocol
import FoundationEssentials
import Glibc

extension DaemonCore {
    /// What `SetShortcuts` does once the published set is stored, before it replies: the written
    /// desktop entry gets the published shortcuts as its actions (SPEC §8).
    func rewriteDesktopActions(appID: String, types: [String]) -> @Sendable () -> Void {
        guard let config = config(appID) else { return {} }
        let entry = WrittenDesktopEntry(appID: appID, environment: configuration.environment)
        let logger = self.logger
        return {
            if let failure = entry.rewriteActions(config: config, shortcuts: types) { logger.warning("\(failure)") }
        }
    }

    /// Re-derives every written desktop entry whose installed source changed (start-up and
    /// `Reload`; SPEC §8), writing only entries whose text differs.
    func refreshDesktopEntries() {
        guard DesktopEntryLocator.dataHome(environment: configuration.environment) != nil else { return }
        for appID in registry.appIDs {
            guard let config = config(appID) else { continue }
            let entry = WrittenDesktopEntry(appID: appID, environment: configuration.environment)
            switch entry.refresh(config: config, published: published[appID]) {
            case .success(let message): logger.notice("\(message)")
            case .failure(let failure): logger.warning("\(failure.message)")
            case nil: break
            }
        }
    }
}

/// A server signal about a notification whose record is still being written (held until it commits).
enum NotificationEvent: Sendable {
    case clicked(String)
    case closed
}

extension DaemonCore {
    /// Checks that a notification can be posted: a configured app and a payload that routes.
    func notificationAppName(appID: String, payload: String) throws(DeeplinkerError) -> String {
        let config = try registry.config(appID)
        _ = try registry.resolveNotification(appID: appID, payloadJSON: payload)
        return config.name ?? appID
    }

    /// Remembers a posted notification durably; in memory once its write commits (SPEC §6). A click
    /// or close arriving before that (the server may click right behind its `Notify` reply) is held
    /// and applied after the commit, so it still routes (SPEC §3); a refused write drops them.
    func rememberNotification(id: UInt32, appID: String, payload: String) -> PendingCommit {
        let posted = PostedNotification(id: id, appID: appID, payload: payload, postedAt: engine.now)
        notificationsBeingWritten[id] = []
        let commit = store.enqueue([.notificationPosted(posted)])
        commit.whenWritten { outcome in
            self.onLoop { core in
                let held = core.notificationsBeingWritten.removeValue(forKey: id) ?? []
                guard case .success = outcome else {
                    core.notificationTokens[id] = nil
                    return
                }
                core.postedNotifications[id] = posted
                for event in held {
                    switch event {
                    case .clicked(let action): core.notificationClicked(id: id, action: action)
                    case .closed: core.notificationClosed(id)
                    }
                }
            }
        }
        return commit
    }

    /// `ActivationToken(id, token)`: kept for the `ActionInvoked` that follows.
    func activationToken(_ token: String, notification id: UInt32) {
        notificationTokens[id] = token
    }

    /// `ActionInvoked`: for a remembered notification, as if `ActivateNotification` had been called;
    /// other notifications (another program's, or closed ones) are ignored.
    func notificationClicked(id: UInt32, action: String) {
        if postedNotifications[id] == nil, notificationsBeingWritten[id] != nil {
            return notificationsBeingWritten[id]!.append(.clicked(action))
        }
        guard let notification = postedNotifications[id], !notificationsBeingClosed.contains(id) else {
            notificationTokens[id] = nil
            return
        }
        var data = [PlatformDataKey.notificationAction: action]
        if let token = notificationTokens.removeValue(forKey: notification.id) { data[PlatformDataKey.activationToken] = token }
        let appID = notification.appID
        let payload = notification.payload
        let (result, _) = invoke(appID: appID, kind: "notification", input: payload, source: .notification, platformData: data) {
            (registry, _) throws(DeeplinkerError) in .route(try registry.resolveNotification(appID: appID, payloadJSON: payload))
        }
        if case .failure(let error) = result {
            logger.warning("click on notification \(notification.id) of \(appID): \(error.message)")
        }
    }

    /// `NotificationClosed`: forgets the notification.
    func notificationClosed(_ id: UInt32) {
        if postedNotifications[id] == nil, notificationsBeingWritten[id] != nil {
            return notificationsBeingWritten[id]!.append(.closed)
        }
        notificationTokens[id] = nil
        guard postedNotifications[id] != nil, !notificationsBeingClosed.contains(id) else { return }
        // Forgotten once that is committed: a refused write keeps it (SPEC §6). Clicks meanwhile
        // come after the close and route nothing.
        notificationsBeingClosed.insert(id)
        store.enqueue([.notificationClosed(id: id)]).whenWritten { outcome in
            self.onLoop { core in
                core.notificationsBeingClosed.remove(id)
                if case .success = outcome { core.postedNotifications[id] = nil }
            }
        }
    }
}

extension DaemonCore {
    /// Watches the bus names of exactly the configured apps, one `NameWatch` each. Called on start
    /// and whenever the registry changes: new apps are watched (their owner read once the watch is
    /// active, so no change is lost), removed apps let go.
    func watchAppNames() {
        for (app, watch) in nameWatches where !registry.contains(app) {
            nameWatches[app] = nil
            watch?.cancel()
        }
        let added = registry.appIDs.filter { nameWatches[$0] == nil }
        guard !added.isEmpty else { return }
        for app in added { nameWatches[app] = .some(nil) }
        let connection = self.connection
        Task {
            for (app, result) in await Self.watchNames(added, on: connection, onChange: { name, owner in
                self.onLoop { $0.ownerChanged(name: name, newOwner: owner) }
            }) {
                self.onLoop { core in core.watching(app, result) }
            }
        }
    }

    /// One `NameWatch` per app, all started at once: the bus answers them in order, and waiting
    /// for each in turn would cost a round trip per app at start-up. `onChange` gets (name, new
    /// owner or "").
    nonisolated static func watchNames(
        _ apps: [String], on connection: DBusConnection, onChange: @escaping @Sendable (String, String) -> Void
    ) async -> [(app: String, result: Result<(watch: NameWatch, owner: String?), DBusError>)] {
        let starts = apps.map { app in
            Task { () async throws -> (watch: NameWatch, owner: String?) in
                try await NameWatch.start(app, on: connection) { owner in onChange(app, owner) }
            }
        }
        var results: [(app: String, result: Result<(watch: NameWatch, owner: String?), DBusError>)] = []
        for (app, start) in zip(apps, starts) { results.append((app, await start.result.mapError { $0 as? DBusError ?? .failed("\($0)") })) }
        return results
    }

    /// A watch started (or failed): keep it (or let it go if the app went away meanwhile) and
    /// reconcile with the owner it read.
    private func watching(_ app: String, _ result: Result<(watch: NameWatch, owner: String?), DBusError>) {
        defer { runNameWatchWaiters() }
        switch result {
        case .success(let (watch, owner)):
            guard registry.contains(app) else { return watch.cancel() }
            nameWatches[app] = .some(watch)
            if (owner ?? "") != (engine.owner(of: app) ?? "") { ownerChanged(name: app, newOwner: owner ?? "") }
        case .failure(let error):
            nameWatches[app] = nil
            logger.warning("cannot watch the bus name \(app): \(error.name): \(error.message)")
        }
    }

    /// Runs `job` once every name watch being made is active (at once when none is): `Reload`
    /// answers after it, so an app added by a reload is watched when the caller hears back.
    func afterNameWatches(_ job: @escaping @Sendable () -> Void) {
        if nameWatches.values.contains(where: { $0 == nil }) {
            nameWatchWaiters.append(job)
        } else {
            job()
        }
    }

    private func runNameWatchWaiters() {
        guard !nameWatches.values.contains(where: { $0 == nil }) else { return }
        let waiters = nameWatchWaiters
        nameWatchWaiters = []
        for job in waiters { job() }
    }
}
