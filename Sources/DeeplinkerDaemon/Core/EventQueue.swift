import Synchronization

/// Bus events and method calls in arrival order, run one at a time on the core actor. The core runs
/// on the connection's loop thread, so a handler (already on that thread) enters it at once; other
/// threads queue their jobs on the loop behind the messages already there.
final class EventQueue: Sendable {
    typealias Job = @Sendable (isolated DaemonCore) -> Void

    private let core: DaemonCore
    private let finished = Atomic<Bool>(false)

    init(core: DaemonCore) {
        self.core = core
    }

    /// Runs `job` on the core: inline when called on the loop, else queued there in order.
    func submit(_ job: @escaping Job) {
        guard !finished.load(ordering: .acquiring) else { return }
        core.onLoop(job)
    }

    /// Drops later submissions (shutdown).
    func finish() { finished.store(true, ordering: .releasing) }
}
