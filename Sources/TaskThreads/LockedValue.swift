import Glibc

/// A value behind a lock: `Synchronization.Mutex`'s interface, including its checked `Sendable`
/// (the value goes in and out as `sending`), on a `pthread_mutex_t`. The package's shared mutable
/// state uses this instead of `Mutex` because ThreadSanitizer intercepts pthread mutexes but does not
/// see `Mutex` on Linux. A contended `Mutex` is taken and released in its futex slow path, inside
/// the standard library, which is not instrumented. TSan misses that hand-over and reports the
/// critical section after it as a race (`scripts/sanitizers/tsan.supp` has the proof). This is the
/// only `@unchecked Sendable` in the package's locking: every access to `value` holds `mutex`.
package final class LockedValue<Value: ~Copyable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    package init(_ initialValue: consuming sending Value) {
        value = initialValue
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value. Not reentrant: calling `withLock` on the same
    /// lock inside `body` deadlocks (as with `Mutex`).
    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
