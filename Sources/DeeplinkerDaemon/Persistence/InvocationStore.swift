import DeeplinkerCore

/// Durable state of the daemon: invocation history (with the open, i.e. pending, routes), app
/// states with their owners, published shortcuts and posted notifications.
///
/// Writes go through ``enqueue(_:)``, which fixes their order synchronously and returns a
/// ``PendingCommit``; concurrently enqueued writes are committed together in one transaction
/// (group commit) and each caller's ``PendingCommit/wait()`` returns once its own write is durable.
public protocol InvocationStore: Sendable {
    /// Queues `changes` to be committed atomically, after everything enqueued before.
    /// Call it from the engine's actor right after the event so writes keep the engine's order.
    func enqueue(_ changes: [StoreChange]) -> PendingCommit

    /// Runs the commit pipeline (commits, their effects, and the replies once durable) on
    /// `executor` instead of the store's own serial queue: the daemon hands it its bus thread.
    func scheduleCommits(on executor: CommitExecutor)

    /// What the engine needs at start-up: open invocations, app states, last delivered routes.
    /// Reads no row per retained invocation beyond the open ones.
    func loadSnapshot() async throws -> EngineSnapshot

    /// The first invocation of `appID` with `dedupeKey` received at or after `since` (µs since
    /// the epoch), rejected ones excepted: the one a repeat de-duplicates to (SPEC §6). Synchronous,
    /// on the caller's thread (the bus thread, between its commits), through an index.
    func firstInvocation(appID: String, dedupeKey: String, since: Int64) throws -> Invocation?

    /// Retained invocations, newest first (by receipt time); `appID` `nil` = all apps, `limit` 0 = all.
    func history(appID: String?, limit: Int) async throws -> [Invocation]

    /// The same rows as ``history(appID:limit:)``, as the `GetHistory` listing shows them.
    func historyEntries(appID: String?, limit: Int) async throws -> [HistoryEntry]

    /// One invocation by id, if retained.
    func invocation(id: String) async throws -> Invocation?

    /// The recorded state of every app.
    func appStates() async throws -> [AppStateRecord]

    /// The shortcut types the app published with `SetShortcuts`, in order (empty if none).
    func shortcuts(appID: String) async throws -> [String]

    /// The published shortcuts of every app that published any.
    func allShortcuts() async throws -> [String: [String]]

    /// The notifications posted with `PostNotification` and not yet closed, by id.
    func notifications() async throws -> [UInt32: PostedNotification]

    /// The latest check of every claimed domain that was ever checked (`SetDomainVerification`).
    func domainChecks() async throws -> [DomainCheck]

    /// Finishes queued writes and closes the store; later calls fail with ``StoreError/closed``.
    func close() async throws

    /// How long the sync that makes written commits durable has been running, if one is.
    var syncRunningFor: Duration? { get }

    /// Calls `body` once a sync has failed (at once if one has): the store acknowledges nothing
    /// more, and the daemon must stop (SPEC §9). A store that never syncs never calls it.
    func whenSyncFails(_ body: @escaping @Sendable (any Error) -> Void)
}
