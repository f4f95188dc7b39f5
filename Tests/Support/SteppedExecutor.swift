import DeeplinkerDaemon

/// A ``CommitExecutor`` the test steps: the store's drains (its commits and their effects) and the
/// sync thread's reports (durable through N: the replies) wait in one queue, in the order they
/// were asked for, until the test runs them, so an order is forced rather than hoped for.
public final class SteppedExecutor: Sendable {
    /// What a queued job is.
    public enum Kind: Sendable, Equatable {
        /// A drain of the store's queue (commits, then their written callbacks).
        case drain
        /// Any other job, the sync thread's report.
        case job
    }

    private struct Job: Sendable {
        let kind: Kind
        let body: @Sendable () -> Void
    }

    private let queued = Recorder<Job>()
    private let taken = Locked(0)

    public init() {}

    /// The executor to hand the store (``InvocationStore/scheduleCommits(on:)``).
    public var executor: CommitExecutor {
        let queued = self.queued
        return CommitExecutor(
            drainLater: { queued.put(Job(kind: .drain, body: $0)) },
            execute: { queued.put(Job(kind: .job, body: $0)) })
    }

    /// The kinds of the jobs queued and not yet run, in order.
    public var pending: [Kind] {
        Array(queued.all.dropFirst(taken.value).map(\.kind))
    }

    /// Runs the next queued job, waiting for one to be queued; returns its kind.
    @discardableResult
    public func runNext() async throws -> Kind {
        let job = try await queued.next()
        taken.mutate { $0 += 1 }
        job.body()
        return job.kind
    }

    /// Hands `store` a serial queue from now on and runs what is still queued here (a test's end:
    /// the store can then close).
    public func finish(_ store: any InvocationStore) async throws {
        store.scheduleCommits(on: .serialQueue())
        while !pending.isEmpty { try await runNext() }
    }
}
