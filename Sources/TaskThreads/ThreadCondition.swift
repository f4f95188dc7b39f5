import Glibc

/// A pthread mutex and a condition variable that waits on `CLOCK_MONOTONIC`, owned together: the
/// one blocking primitive of the package's own threads, which sleep in the kernel until signalled
/// or until a deadline, never on a periodic timer.
package final class ThreadCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a signal; call with the lock held (inside ``withLock(_:)``).
    package func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// Waits for a signal or until `deadline` (nanoseconds of `CLOCK_MONOTONIC`); call with the
    /// lock held.
    package func wait(until deadline: UInt64) {
        guard deadline < UInt64(Int.max) else { return wait() }
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        pthread_cond_timedwait(condition, mutex, &time)
    }

    package func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiter.
    package func broadcast() { pthread_cond_broadcast(condition) }

    /// `CLOCK_MONOTONIC` nanoseconds `duration` (positive) from now; a duration past what the clock
    /// can count is the end of time (a sleep that never ends by itself).
    package static func deadline(after duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = UInt64(clamping: seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let (deadline, late) = now().addingReportingOverflow(whole &+ UInt64(clamping: attoseconds / 1_000_000_000))
        return overflow || late ? UInt64.max : deadline
    }

    /// Nanoseconds of `CLOCK_MONOTONIC`, the clock ``wait(until:)`` takes.
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
