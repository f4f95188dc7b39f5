#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TaskThreads

/// Reaps one child: a thread of its own blocks in `waitpid` and ends with the child; waiters block
/// on a condition variable or suspend on a continuation until then.
final class ExitMonitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`.
    private var result: ChildProcess.Termination?
    private var waiters: [CheckedContinuation<ChildProcess.Termination, Never>] = []

    init(pid: pid_t) {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        startReaper(pid: pid)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    var termination: ChildProcess.Termination? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return result
    }

    /// Runs `body` under the lock if the child has not been reaped yet.
    func ifRunning<T>(_ body: () -> T) -> T? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return result == nil ? body() : nil
    }

    func exit() async -> ChildProcess.Termination {
        await withCheckedContinuation { continuation in
            pthread_mutex_lock(mutex)
            if let result {
                pthread_mutex_unlock(mutex)
                continuation.resume(returning: result)
            } else {
                waiters.append(continuation)
                pthread_mutex_unlock(mutex)
            }
        }
    }

    /// Blocks until the exit, or until `timeout` (nil: no limit) has passed.
    func wait(timeout: Duration?) -> ChildProcess.Termination? {
        var deadline = timespec()
        if let timeout {
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let (seconds, attoseconds) = timeout.components
            let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
            deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
            deadline.tv_nsec = nanoseconds % 1_000_000_000
        }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while result == nil {
            if timeout == nil {
                pthread_cond_wait(condition, mutex)
            } else if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT {
                break
            }
        }
        return result
    }

    fileprivate func reap(_ pid: pid_t) {
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(pid, &status, 0) } while reaped == -1 && errno == EINTR
        // -1 (ECHILD) means someone else reaped it (SIGCHLD ignored): count that as status -1.
        let termination = reaped == pid ? ChildProcess.Termination(waitStatus: status) : .exited(-1)
        pthread_mutex_lock(mutex)
        result = termination
        let resumed = waiters
        waiters = []
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
        for waiter in resumed { waiter.resume(returning: termination) }
    }

    private func startReaper(pid: pid_t) {
        NamedThread.start(name: "reaper", stackSize: 256 * 1024) { [self] in reap(pid) }
    }
}
