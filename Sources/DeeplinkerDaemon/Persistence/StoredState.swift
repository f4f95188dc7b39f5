import DeeplinkerCore
import Logging

/// What the daemon reads from its store before it serves: the open store, the notifications it
/// posted, the engine's snapshot (open invocations, app states, last routes), the published
/// shortcuts and the domain checks. None of it grows with the history kept: de-duplication keys are
/// looked up when an invocation arrives (``InvocationStore/firstInvocation(appID:dedupeKey:since:)``).
struct StoredState: Sendable {
    let store: any InvocationStore
    let posted: [UInt32: PostedNotification]
    let snapshot: EngineSnapshot
    let published: [String: [String]]
    let domainChecks: [DomainCheck]

    /// Opens the configured store (``DaemonConfiguration/store``, else the state directory's
    /// database) and reads it; closes it again if a read fails.
    static func open(_ configuration: DaemonConfiguration, logger: Logger) async throws -> StoredState {
        let store = try configuration.store ?? openDatabase(configuration, logger: logger)
        do {
            let posted = try await store.notifications()
            let snapshot = try await store.loadSnapshot()
            let published = try await store.allShortcuts()
            let domainChecks = try await store.domainChecks()
            return StoredState(store: store, posted: posted, snapshot: snapshot, published: published, domainChecks: domainChecks)
        } catch {
            try? await store.close()
            throw error
        }
    }

    /// Once the daemon serves: checks the database's integrity off the bus thread if the last daemon
    /// stopped uncleanly (``SQLiteInvocationStore/checkIntegrity(logger:completion:)``).
    func checkAfterServing(logger: Logger) {
        guard let database = store as? SQLiteInvocationStore, database.stoppedUncleanly else { return }
        database.checkIntegrity(logger: logger)
    }

    /// Waits for an open that is no longer wanted (the daemon did not get the bus or the name) and
    /// closes what it opened.
    static func discard(_ opening: Task<StoredState, any Error>) async {
        if let stored = try? await opening.value { try? await stored.store.close() }
    }

    /// Opens the state directory's database; a corrupt or newer-schema one is set aside (SPEC §4)
    /// and logged, and the daemon starts empty.
    private static func openDatabase(_ configuration: DaemonConfiguration, logger: Logger) throws -> any InvocationStore {
        do {
            let opened = try SQLiteInvocationStore.openSettingAsideUnusable(
                directory: configuration.stateDirectory, historyLimit: configuration.historyLimit, logger: logger)
            if let quarantined = opened.quarantined { logger.error("\(quarantined)") }
            return opened.store
        } catch {
            throw DaemonError.storage("\(error)")
        }
    }
}
