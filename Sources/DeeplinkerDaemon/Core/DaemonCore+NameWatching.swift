import DBusKit

extension DaemonCore {
    /// Watches the bus names of exactly the configured apps, one `arg0` match rule each (as GDBus's
    /// `g_bus_watch_name` does), instead of every `NameOwnerChanged` on the bus. Called on start and
    /// whenever the registry changes: new apps are subscribed, then their current owner is read, so
    /// no change between the two is lost; removed apps are unsubscribed.
    func watchAppNames() {
        for (app, token) in watchedNames where !registry.contains(app) {
            watchedNames[app] = nil
            if let token { connection.unsubscribe(token) }
        }
        let added = registry.appIDs.filter { watchedNames[$0] == nil }
        guard !added.isEmpty else { return }
        for app in added { watchedNames[app] = .some(nil) }
        let connection = self.connection
        Task {
            let results = await Self.subscribeToNames(added, on: connection) { name, owner in
                self.onLoop { $0.ownerChanged(name: name, newOwner: owner) }
            }
            for (app, result) in results {
                switch result {
                case .success(let token):
                    let owner = try? await connection.nameOwner(app)
                    self.onLoop { core in core.watching(app, token: token, owner: owner) }
                case .failure(let error):
                    self.onLoop { core in
                        core.watchedNames[app] = nil
                        core.logger.warning("cannot watch the bus name \(app): \(error.name): \(error.message)")
                        core.runNameWatchWaiters()
                    }
                }
            }
        }
    }

    /// One `NameOwnerChanged` subscription (`arg0` rule) per app, all sent at once: the bus answers
    /// them in order, and waiting for each in turn would cost a round trip per app at start-up.
    /// `onChange` gets (name, new owner or "").
    nonisolated static func subscribeToNames(
        _ apps: [String], on connection: DBusConnection, onChange: @escaping @Sendable (String, String) -> Void
    ) async -> [(app: String, result: Result<UInt64, DBusError>)] {
        let subscriptions = apps.map { app in
            Task { () async throws -> UInt64 in
                try await connection.onNameOwnerChanged(name: app) { name, _, owner in onChange(name, owner) }
            }
        }
        var results: [(app: String, result: Result<UInt64, DBusError>)] = []
        for (app, subscription) in zip(apps, subscriptions) {
            results.append((app, await subscription.result.mapError { $0 as? DBusError ?? .failed("\($0)") }))
        }
        return results
    }

    /// Its subscription is active: keep the token (or drop it if the app went away meanwhile) and
    /// reconcile with the owner read after subscribing.
    private func watching(_ app: String, token: UInt64, owner: String?) {
        defer { runNameWatchWaiters() }
        guard registry.contains(app) else { return connection.unsubscribe(token) }
        watchedNames[app] = .some(token)
        if (owner ?? "") != (engine.owner(of: app) ?? "") { ownerChanged(name: app, newOwner: owner ?? "") }
    }

    /// Runs `job` once every name watch being made is active (at once when none is): `Reload`
    /// answers after it, so an app added by a reload is watched when the caller hears back.
    func afterNameWatches(_ job: @escaping @Sendable () -> Void) {
        if watchedNames.values.contains(where: { $0 == nil }) {
            nameWatchWaiters.append(job)
        } else {
            job()
        }
    }

    private func runNameWatchWaiters() {
        guard !watchedNames.values.contains(where: { $0 == nil }) else { return }
        let waiters = nameWatchWaiters
        nameWatchWaiters = []
        for job in waiters { job() }
    }

    /// The configured apps whose name watch is active (for tests and start-up).
    var watchedAppNames: Set<String> {
        Set(watchedNames.compactMap { $0.value == nil ? nil : $0.key })
    }
}
