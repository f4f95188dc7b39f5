internal import CTaskThreads
import Glibc
import Synchronization

/// Why ``JobThreads/unsafeInstallAsGlobalExecutor(threads:name:)`` installed nothing.
public enum GlobalExecutorHookError: Error, Equatable, CustomStringConvertible {
    /// Someone else set the runtime's hook (at this address) first; it is left in place.
    case anotherHookInstalled(address: UInt)
    /// The hook's type is the runtime's private contract; it is known only for the compilers listed
    /// in the guard, so with a newer one the runtime's own pool runs the jobs.
    case untestedCompiler

    public var description: String {
        switch self {
        case .anotherHookInstalled(let address):
            "another global-executor hook (0x\(String(address, radix: 16))) is already installed in swift_task_enqueueGlobal_hook; it was left in place"
        case .untestedCompiler:
            "this compiler's concurrency runtime is newer than the global-executor hook was tested with; the runtime's own pool runs the jobs"
        }
    }
}

extension JobThreads {
    /// The runtime's own global enqueue, which the hook is handed and does not call.
    private typealias RuntimeEnqueue = @convention(thin) (UnownedJob) -> Void
    private typealias EnqueueHook = @convention(thin) (UnownedJob, RuntimeEnqueue) -> Void

    /// Sends every job the runtime would hand to its global executor (tasks, task groups, async
    /// functions that are not on an actor, resumed continuations) to these threads, for the rest of
    /// the process. Call it once, first thing in `main`, before any task starts. Jobs on the main
    /// actor and on custom executors are not affected. `threads` defaults to the online processors
    /// (at least 2). Returns the pool; a second call returns the first pool.
    ///
    /// Unsafe: the hook's type is the runtime's private contract (hence the compiler guard), and
    /// the compare-and-exchange protects only against others who also use one. Throws when another hook
    /// is already there (it stays) or the compiler is newer than the guard allows.
    @discardableResult
    public static func unsafeInstallAsGlobalExecutor(threads: Int? = nil, name: String) throws(GlobalExecutorHookError) -> JobThreads {
        #if compiler(<6.6)
        return try installing.withLock { _ throws(GlobalExecutorHookError) -> JobThreads in
            if let pool = GlobalPool.pool { return pool }
            let count = threads ?? max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
            let created = JobThreads(threads: count, name: name)
            // Published before the hook that reads it; withdrawn if the hook is not ours.
            GlobalPool.pool = created
            let hook: EnqueueHook = { job, _ in GlobalPool.pool!.enqueue(job) }
            do throws(GlobalExecutorHookError) {
                try exchangeHook(in: ctaskthreads_enqueue_global_hook(), for: unsafeBitCast(hook, to: UnsafeMutableRawPointer.self))
            } catch {
                // The threads stay, idle on their condition: a thread cannot be taken back.
                GlobalPool.pool = nil
                throw error
            }
            return created
        }
        #else
        throw .untestedCompiler
        #endif
    }

    /// Stores `hook` in `slot` if the slot is empty, atomically; throws, naming what is there,
    /// otherwise.
    static func exchangeHook(in slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>, for hook: UnsafeMutableRawPointer) throws(GlobalExecutorHookError) {
        var found: UnsafeMutableRawPointer? = nil
        if !ctaskthreads_compare_exchange(slot, &found, hook), let found {
            throw .anotherHookInstalled(address: UInt(bitPattern: found))
        }
    }

    /// Serialises installs (the first one wins).
    private static let installing = LockedValue(())
}

/// The installed pool, read by the hook on every enqueue without a lock: written once, under
/// `installing`, before the hook that reads it is set.
private enum GlobalPool {
    nonisolated(unsafe) static var pool: JobThreads?
}
