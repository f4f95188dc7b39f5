import DeeplinkerCore

/// Engine effects waiting for their commit, run in commit order by one consumer task.
final class SideEffectQueue: Sendable {
    struct Batch: Sendable {
        let commit: PendingCommit
        let effects: [EngineEffect]
    }

    let stream: AsyncStream<Batch>
    private let continuation: AsyncStream<Batch>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Batch.self)
    }

    func push(_ batch: Batch) { continuation.yield(batch) }

    func finish() { continuation.finish() }
}
