/// A fixed set of named threads that run Swift concurrency jobs in the order they were enqueued.
///
/// Installed as the target of the runtime's global enqueue (``unsafeInstallAsGlobalExecutor(threads:name:)``),
/// it replaces libdispatch's worker pool for a process: libdispatch starts a 1 Hz monitor of its
/// pool (`_dispatch_workq_monitor_pools`) the first time a worker thread starts, and it never
/// stops. These threads wait on a condition variable and cost nothing while there is no job.
public final class JobThreads: TaskExecutor, @unchecked Sendable {
    private let condition = ThreadCondition()
    // Guarded by `condition`: a ring of jobs; `head` is the next to run.
    private var jobs: [UnownedJob?] = Array(repeating: nil, count: 64)
    private var head = 0
    private var count = 0

    /// Starts `threads` threads named `name`; they live as long as the process.
    public init(threads: Int, name: String) {
        precondition(threads > 0, "JobThreads needs a thread")
        for _ in 0..<threads {
            NamedThread.start(name: name) { [self] in self.work() }
        }
    }

    public func enqueue(_ job: UnownedJob) {
        condition.withLock {
            if count == jobs.count { grow() }
            jobs[(head + count) % jobs.count] = job
            count += 1
            condition.signal()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        enqueue(UnownedJob(job))
    }

    private func grow() {
        var larger: [UnownedJob?] = Array(repeating: nil, count: jobs.count * 2)
        for index in 0..<count { larger[index] = jobs[(head + index) % jobs.count] }
        jobs = larger
        head = 0
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        while true {
            let job = condition.withLock { () -> UnownedJob in
                while count == 0 { condition.wait() }
                let job = jobs[head]!
                jobs[head] = nil
                head = (head + 1) % jobs.count
                count -= 1
                return job
            }
            job.runSynchronously(on: executor)
        }
    }
}
