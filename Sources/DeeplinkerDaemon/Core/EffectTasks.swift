import DBusKit
import TaskThreads

/// The tasks the daemon starts for effects (deliveries, launches, raises) and other calls it answers
/// later, tracked so a stop waits for them for a bounded time and then cancels the rest at a known
/// point, instead of leaving them to the process's exit.
final class EffectTasks: Sendable {
    private struct State {
        /// nil for work that is not a task (a call answered by a callback), which cannot be cancelled.
        var running: [UInt64: Task<Void, Never>?] = [:]
        var nextID: UInt64 = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedValue(State())

    /// A new task's id; register its handle with ``started(_:_:)`` before it can end.
    func reserve() -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
    }

    func started(_ id: UInt64, _ task: Task<Void, Never>) {
        state.withLock { $0.running[id] = .some(task) }
    }

    /// Registers work that is no task (a delivery whose reply comes as a callback): a stop waits for
    /// it as for a task; ``finished(_:)`` ends it.
    func startedWithoutTask(_ id: UInt64) {
        state.withLock { $0.running[id] = .some(nil) }
    }

    /// How many are still running.
    var count: Int { state.withLock { $0.running.count } }

    /// Waits until none runs or `timeout` passes, then cancels what is left; returns how many were
    /// cancelled.
    @discardableResult
    func drain(timeout: Duration) async -> Int {
        let timer = Task {
            try? await TimerThread.shared.sleep(for: timeout)
            self.wakeIdleWaiters()
        }
        defer { timer.cancel() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state in
                if state.running.isEmpty { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
        let left = state.withLock { Array($0.running.values) }
        for task in left { task?.cancel() }
        return left.count
    }

    func finished(_ id: UInt64) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.running[id] = nil
            guard state.running.isEmpty else { return [] }
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func wakeIdleWaiters() {
        let waiters = state.withLock { state in
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
