import Dispatch
import Glibc
import Testing
import TaskThreads

/// The pool that replaces libdispatch's workers runs jobs on its own named threads, in order.
@Suite("JobThreads")
struct JobThreadsTests {
    /// The calling thread's name, from /proc (glibc's pthread_getname_np needs _GNU_SOURCE).
    static func threadName() -> String {
        let fd = open("/proc/thread-self/comm", O_RDONLY)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = read(fd, &buffer, buffer.count)
        return String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmingSuffix("\n")
    }

    @Test("a task that prefers the pool runs on one of its threads, named as asked")
    func runsOnItsThreads() async {
        let pool = JobThreads(threads: 2, name: "test-jobs")
        let name = await Task(executorPreference: pool) { Self.threadName() }.value
        #expect(name == "test-jobs")
    }

    @Test("with one thread, jobs run in the order they were enqueued, past the ring's first size")
    func fifo() async {
        let pool = JobThreads(threads: 1, name: "test-fifo")
        let order = LockedValue<[Int]>([])
        // The thread is held by a first job until all 200 are queued: more than the ring's 64 slots.
        let gate = DispatchSemaphore(value: 0)
        let held = Task(executorPreference: pool) { gate.wait() }
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask(executorPreference: pool) { order.withLock { $0.append(index) } }
            }
            gate.signal()
        }
        await held.value
        #expect(order.withLock { $0 } == Array(0..<200))
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
