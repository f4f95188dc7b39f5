/// Bus events and method calls in arrival order, run one at a time on the core actor. Spawning a
/// task per message would let two messages from one peer overtake each other.
final class EventQueue: Sendable {
    typealias Job = @Sendable (isolated DaemonCore) -> Void

    private let stream: AsyncStream<Job>
    private let continuation: AsyncStream<Job>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Job.self)
    }

    func submit(_ job: @escaping Job) { continuation.yield(job) }

    func finish() { continuation.finish() }

    /// Runs the jobs until `finish()`.
    func run(on core: DaemonCore) async {
        for await job in stream { await core.perform(job) }
    }
}
