/// A serial executor that runs jobs on a connection's loop thread. An actor that uses it can be
/// entered synchronously (`assumeIsolated`) from method and signal handlers, which run on that
/// thread: no hop to another thread between a message and the actor that handles it.
public final class DBusLoopExecutor: SerialExecutor {
    let loop: EventLoop

    init(loop: EventLoop) {
        self.loop = loop
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        loop.enqueue { job.runSynchronously(on: executor) }
    }

    /// Runs `body` on the loop after what is already queued there (never inline).
    public func execute(_ body: @escaping @Sendable () -> Void) {
        loop.enqueue(body)
    }

    /// Runs `body` on the loop once the jobs queued so far have run and the messages read in this
    /// wake-up are dispatched, before the loop waits for the bus again: work that is cheaper done
    /// once for all of them (a group commit), with no thread to wake.
    public func executeWhenIdle(_ body: @escaping @Sendable () -> Void) {
        loop.enqueueWhenIdle(body)
    }

    /// Whether the caller is on the loop (where this executor's jobs run).
    public var isCurrent: Bool { loop.isLoopContext }

    public func checkIsolated() {
        precondition(loop.isLoopContext, "not on the D-Bus loop thread that isolates this actor")
    }

    public func isIsolatingCurrentContext() -> Bool? {
        loop.isLoopContext
    }
}
