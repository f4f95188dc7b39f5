/// When the daemon next has to expire a waiting route: the core sends each earlier deadline here
/// (engine microseconds) and `Daemon.sweep` sleeps until the latest one it received. An idle daemon
/// with nothing waiting is never woken for it (no periodic wake-ups when idle).
final class SweepSchedule: Sendable {
    let deadlines: AsyncStream<Int64>
    private let continuation: AsyncStream<Int64>.Continuation

    init() {
        (deadlines, continuation) = AsyncStream.makeStream(of: Int64.self, bufferingPolicy: .bufferingNewest(1))
    }

    func wake(at deadline: Int64) { continuation.yield(deadline) }

    func finish() { continuation.finish() }
}
