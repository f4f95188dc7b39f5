import DeeplinkerCore

/// When a write that carries a delivery is recorded ahead of its transaction, and so when its
/// effects may run (``InvocationStore/enqueue(_:recording:)``).
public enum DeliveryRecording: Sendable {
    /// It carries none: its effects wait for its transaction.
    case none
    /// By the drain, just before the transaction: the effects run after the job that enqueued it,
    /// so a method's reply sent from that job goes first (SPEC §3: `SetAppState` replies before any
    /// delivery starts).
    case atDrain
    /// At once when nothing waits before it: the effects may run before `enqueue` returns, so the
    /// delivery leaves ahead of the rest of the caller's job.
    case atOnce
}

/// Runs a drain of queued writes later, on one thread at a time (see
/// ``InvocationStore/scheduleCommits(on:)``).
public typealias CommitScheduler = @Sendable (@escaping @Sendable () -> Void) -> Void

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

    /// ``enqueue(_:)`` of a write whose effects send a delivery: a store may let it go out before
    /// the transaction once it has recorded the write where a restart finds it (SPEC §6:
    /// `delivering` before the send), as `recording` says. The default ignores it.
    func enqueue(_ changes: [StoreChange], recording: DeliveryRecording) -> PendingCommit

    /// Runs commits where `scheduler` puts them (each drain later than the write that asked for
    /// it, one at a time) instead of on the store's own thread: the daemon hands it its bus loop's
    /// idle hook. A store that commits at once needs no scheduler and ignores it.
    func scheduleCommits(on scheduler: @escaping CommitScheduler)

    /// Everything the engine needs at start-up; `dedupeSince` (µs since the epoch) bounds the
    /// recent invocations loaded for de-duplication.
    func loadSnapshot(dedupeSince: Int64) async throws -> EngineSnapshot

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
}
