import DeeplinkerCore
import Logging

/// What the daemon reads from its store before it serves: the open store, the notifications it
/// posted, the engine's snapshot, the published shortcuts and the domain checks.
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
            // Keys used within the last hour still de-duplicate after a restart.
            let snapshot = try await store.loadSnapshot(dedupeSince: configuration.clock.nowMicroseconds() - 3_600_000_000)
            let published = try await store.allShortcuts()
            let domainChecks = try await store.domainChecks()
            return StoredState(store: store, posted: posted, snapshot: snapshot, published: published, domainChecks: domainChecks)
        } catch {
            try? await store.close()
            throw error
        }
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
