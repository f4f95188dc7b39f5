import DBusKit
import Testing
@testable import DeeplinkerDaemon
import TaskThreads

/// The tracker a stop drains: it waits for tasks in flight and cuts off the rest at its time-out.
@Suite struct EffectTasksTests {
    /// A task body that runs until `release()`.
    final class Gate: Sendable {
        private let continuation = LockedValue<CheckedContinuation<Void, Never>?>(nil)
        private let opened = LockedValue(false)

        func wait() async {
            await withCheckedContinuation { c in
                let resumeNow = opened.withLock { $0 }
                if resumeNow { c.resume() } else { continuation.withLock { $0 = c } }
            }
        }

        func release() {
            opened.withLock { $0 = true }
            continuation.withLock { c in
                c?.resume()
                c = nil
            }
        }
    }

    func start(_ tasks: EffectTasks, _ body: @escaping @Sendable () async -> Void) {
        let id = tasks.reserve()
        let task = Task {
            await body()
            tasks.finished(id)
        }
        tasks.started(id, task)
    }

    @Test func drainWaitsForTasksThatFinish() async {
        let tasks = EffectTasks()
        let gate = Gate()
        let ran = LockedValue(false)
        start(tasks) {
            await gate.wait()
            ran.withLock { $0 = true }
        }
        #expect(tasks.count == 1)
        let drained = Task { await tasks.drain(timeout: .seconds(60)) }
        gate.release()
        #expect(await drained.value == 0)
        #expect(ran.withLock { $0 })
        #expect(tasks.count == 0)
    }

    @Test func drainCutsOffWhatIsLeftAtItsTimeout() async {
        let tasks = EffectTasks()
        let gate = Gate()
        start(tasks) { await gate.wait() }
        #expect(await tasks.drain(timeout: .milliseconds(50)) == 1)
        gate.release()
    }

    @Test func drainWithNothingRunningReturnsAtOnce() async {
        #expect(await EffectTasks().drain(timeout: .seconds(60)) == 0)
    }

    @Test func drainWaitsForWorkWithoutATaskAndCountsItWhenCutOff() async {
        let tasks = EffectTasks()
        let id = tasks.reserve()
        tasks.startedWithoutTask(id)
        #expect(tasks.count == 1)
        #expect(await tasks.drain(timeout: .milliseconds(50)) == 1, "nothing to cancel, but it is reported unfinished")
        let drained = Task { await tasks.drain(timeout: .seconds(60)) }
        tasks.finished(id)
        #expect(await drained.value == 0)
        #expect(tasks.count == 0)
    }
}
