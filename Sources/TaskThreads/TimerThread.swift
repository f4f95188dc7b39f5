/// Sleeps for tasks on one thread of its own that waits for the nearest deadline, instead of
/// `Task.sleep`, which arms a libdispatch timer and starts a libdispatch worker when it fires
/// (and with it the worker pool's 1 Hz monitor). The thread starts with the first sleep and, with
/// no deadline left, waits without a timeout; it lives as long as the process.
public final class TimerThread: @unchecked Sendable {
    /// The process's timer thread.
    public static let shared = TimerThread(name: "timers")

    private struct Sleeper {
        let id: UInt64
        let deadline: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let condition = ThreadCondition()
    private let name: String
    // Guarded by `condition`.
    private var sleepers: [Sleeper] = []  // by deadline, then id
    /// Sleeps whose continuation is not registered yet, and those of them cancelled meanwhile.
    private var registering: Set<UInt64> = []
    private var cancelledEarly: Set<UInt64> = []
    private var nextID: UInt64 = 0
    private var started = false

    public init(name: String) {
        self.name = name
    }

    /// Returns after `duration` (at once when it is not positive); throws `CancellationError` as
    /// soon as the task is cancelled, as `Task.sleep` does.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        guard duration > .zero else { return }
        let deadline = ThreadCondition.deadline(after: duration)
        let id = condition.withLock { () -> UInt64 in
            nextID += 1
            registering.insert(nextID)
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let refused = condition.withLock { () -> Bool in
                    registering.remove(id)
                    if cancelledEarly.remove(id) != nil { return true }
                    let index = sleepers.firstIndex { $0.deadline > deadline } ?? sleepers.endIndex
                    sleepers.insert(Sleeper(id: id, deadline: deadline, continuation: continuation), at: index)
                    if !started {
                        started = true
                        NamedThread.start(name: name, stackSize: 128 * 1024) { [self] in self.run() }
                    }
                    // Only a new nearest deadline changes how long the thread waits.
                    if index == 0 { condition.signal() }
                    return false
                }
                if refused { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let sleeper = condition.withLock { () -> Sleeper? in
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else {
                    // Not registered yet: refused when it is. Otherwise it has already returned.
                    if registering.contains(id) { cancelledEarly.insert(id) }
                    return nil
                }
                return sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// How many sleeps are waiting (for tests).
    package var waiting: Int { condition.withLock { sleepers.count } }

    private func run() {
        while true {
            let due = condition.withLock { () -> [Sleeper] in
                while true {
                    guard let first = sleepers.first else {
                        condition.wait()
                        continue
                    }
                    let now = ThreadCondition.now()
                    if first.deadline <= now {
                        let end = sleepers.firstIndex { $0.deadline > now } ?? sleepers.endIndex
                        defer { sleepers.removeSubrange(0..<end) }
                        return Array(sleepers[0..<end])
                    }
                    condition.wait(until: first.deadline)
                }
            }
            for sleeper in due { sleeper.continuation.resume() }
        }
    }
}
