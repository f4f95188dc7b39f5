internal import CTaskThreads
import Glibc
import Synchronization

extension JobThreads {
    /// The runtime's own global enqueue, which the hook is handed and does not call.
    private typealias RuntimeEnqueue = @convention(thin) (UnownedJob) -> Void
    private typealias EnqueueHook = @convention(thin) (UnownedJob, RuntimeEnqueue) -> Void

    /// Sends every job the runtime would hand to its global executor (tasks, task groups, async
    /// functions that are not on an actor, resumed continuations) to these threads, for the rest of
    /// the process. Call it once, first thing in `main`, before any task starts. Jobs on the main
    /// actor and on custom executors are not affected. `threads` defaults to the online processors
    /// (at least 2). Returns the pool; a second call returns the first pool.
    @discardableResult
    public static func installAsGlobalExecutor(threads: Int? = nil, name: String) -> JobThreads {
        installing.withLock { _ in
            if let pool = GlobalPool.pool { return pool }
            let count = threads ?? max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
            let created = JobThreads(threads: count, name: name)
            GlobalPool.pool = created
            let hook: EnqueueHook = { job, _ in GlobalPool.pool!.enqueue(job) }
            _ = ctaskthreads_set_enqueue_global(unsafeBitCast(hook, to: UnsafeMutableRawPointer.self))
            return created
        }
    }

    /// Serialises installs (the first one wins).
    private static let installing = Mutex(())
}

/// The installed pool, read by the hook on every enqueue without a lock: written once, under
/// `installing`, before the hook that reads it is set.
private enum GlobalPool {
    nonisolated(unsafe) static var pool: JobThreads?
}
