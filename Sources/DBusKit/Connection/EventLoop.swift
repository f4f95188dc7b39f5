internal import CDBus
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import TaskThreads

/// Runs one libdbus connection on a dedicated thread: `poll(2)` over libdbus's watches, its
/// timeouts and an eventfd that other threads write to after posting a job. Every libdbus call
/// on the connection happens on this thread (sends from other threads are queued here too), so no
/// caller can deadlock the dispatch loop and libdbus's watch and timeout callbacks, which touch
/// ``watches`` and ``timeouts`` without a lock, only ever run on it.
final class EventLoop: @unchecked Sendable {
    // Loop-thread state: touched only by callbacks and jobs running on the loop thread.
    var watches: [OpaquePointer] = []
    var timeouts: [TimeoutEntry] = []
    var running = true

    private let jobs = LockedValue(Jobs())
    private struct Jobs {
        var queue: [@Sendable () -> Void] = []
        /// Run once the queue is empty and the messages read are dispatched, before the next poll.
        var idle: [@Sendable () -> Void] = []
        var finished = false
    }
    private let wakeFD: Int32
    /// The loop thread's id, 0 until that thread has started (it stores its own id first thing,
    /// so messages it dispatches always find themselves on the loop).
    private let thread = Atomic<UInt>(0)
    private let finishedCondition = ThreadCondition()

    /// Called on the loop thread after each wake-up to let the owner dispatch messages.
    var onIteration: () -> Void = {}

    struct TimeoutEntry {
        let timeout: OpaquePointer
        var deadline: ContinuousClock.Instant?
    }

    init() {
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        afterEnd.setSpecific(key: Self.afterEndKey, value: true)
    }

    deinit {
        close(wakeFD)
    }

    /// Starts the loop thread, named `name` (cut to the 15 bytes Linux allows) for `top` and `perf`,
    /// with glibc's default 8 MiB stack: libdbus's callbacks and the handlers they call run on it.
    func start(name: String) {
        NamedThread.start(name: name, stackSize: 8 << 20) { [self] in
            thread.store(UInt(pthread_self()), ordering: .releasing)
            runLoop()
        }
    }

    var isLoopThread: Bool {
        let id = thread.load(ordering: .acquiring)
        return id != 0 && pthread_equal(pthread_t(id), pthread_self()) != 0
    }

    /// Runs `job` on the loop thread: inline when already there, else queued in order.
    func post(_ job: @escaping @Sendable () -> Void) {
        if isLoopContext {
            job()
            return
        }
        // After the loop ended, jobs run (here, synchronously) on the serial queue that takes over
        // from the loop thread, so loop-confined state is still touched from one place only.
        if !queue(job) { afterEnd.sync(execute: job) }
    }

    /// Runs `job` on the loop thread after the jobs already queued, never inline (an executor must
    /// not run a job inside the one that enqueued it). After the loop ended, jobs run in order on a
    /// serial queue that ``isLoopContext`` also accepts.
    func enqueue(_ job: @escaping @Sendable () -> Void) {
        if !queue(job) { afterEnd.async(execute: job) }
    }

    /// Runs `job` on the loop thread once it has run the jobs queued so far and dispatched the
    /// messages it has read, right before it waits again: work done once per wake-up for all the
    /// messages of that wake-up. Never inline; after the loop ended, on the serial queue that
    /// takes over from it.
    func enqueueWhenIdle(_ job: @escaping @Sendable () -> Void) {
        if !queue(job, idle: true) { afterEnd.async(execute: job) }
    }

    /// Appends `job` for the loop thread; false once the loop has ended. Only the first job into
    /// empty queues wakes the loop, which drains them until they are empty; the loop thread itself
    /// needs no wake-up (it runs every queued job before it polls again): that saves the eventfd's
    /// `write`, `poll` and `read` for each commit a dispatch schedules.
    private func queue(_ job: @escaping @Sendable () -> Void, idle: Bool = false) -> Bool {
        let wake = jobs.withLock { state -> Bool? in
            if state.finished { return nil }
            if idle { state.idle.append(job) } else { state.queue.append(job) }
            return state.queue.count + state.idle.count == 1
        }
        guard let wake else { return false }
        if wake && !isLoopThread {
            var one: UInt64 = 1
            _ = write(wakeFD, &one, 8)
        }
        return true
    }

    /// Whether the caller runs where loop-confined work runs: the loop thread, or the serial queue
    /// that takes ``enqueue(_:)`` jobs once the loop has ended.
    var isLoopContext: Bool {
        isLoopThread || DispatchQueue.getSpecific(key: Self.afterEndKey) != nil
    }

    private static let afterEndKey = DispatchSpecificKey<Bool>()
    private let afterEnd = DispatchQueue(label: "dbus.loop.after-end")

    /// Stops the loop after the jobs already queued, and waits for the thread to end.
    func stopAndWait() {
        post { [self] in running = false }
        if isLoopThread { return }
        finishedCondition.withLock {
            while !jobs.withLock({ $0.finished }) { finishedCondition.wait() }
        }
    }

    private func runJobs() {
        while true {
            let batch = jobs.withLock { state -> [@Sendable () -> Void] in
                let taken = state.queue
                state.queue.removeAll(keepingCapacity: true)
                return taken
            }
            if batch.isEmpty { return }
            for job in batch { job() }
        }
    }

    /// Runs the idle jobs queued so far; false when there were none.
    private func runIdleJobs() -> Bool {
        let batch = jobs.withLock { state -> [@Sendable () -> Void] in
            let taken = state.idle
            state.idle.removeAll(keepingCapacity: true)
            return taken
        }
        for job in batch { job() }
        return !batch.isEmpty
    }

    private func runLoop() {
        var fds: [pollfd] = []
        var owners: [OpaquePointer?] = []
        while running {
            runJobs()
            onIteration()
            guard running else { break }
            runJobs()
            guard running else { break }
            // Idle jobs may queue jobs or send: go round once more before sleeping.
            if runIdleJobs() { continue }

            fds.removeAll(keepingCapacity: true)
            owners.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0))
            owners.append(nil)
            for watch in watches where dbus_watch_get_enabled(watch) != 0 {
                let flags = dbus_watch_get_flags(watch)
                var events: Int16 = 0
                if flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
                if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
                fds.append(pollfd(fd: dbus_watch_get_unix_fd(watch), events: events, revents: 0))
                owners.append(watch)
            }
            let now = ContinuousClock.now
            var waitMS: Int32 = -1
            for entry in timeouts {
                guard let deadline = entry.deadline else { continue }
                let remaining = now.duration(to: deadline)
                let ms = remaining <= .zero ? 0 : Int32(clamping: (remaining.components.seconds * 1000) + Int64(remaining.components.attoseconds / 1_000_000_000_000_000) + 1)
                waitMS = waitMS < 0 ? ms : min(waitMS, ms)
            }
            let ready = poll(&fds, nfds_t(fds.count), waitMS)
            if ready < 0 && errno != EINTR { break }
            if ready > 0 {
                if fds[0].revents != 0 {
                    var value: UInt64 = 0
                    _ = read(wakeFD, &value, 8)
                }
                for index in 1..<fds.count where fds[index].revents != 0 {
                    guard let watch = owners[index], watches.contains(watch) else { continue }
                    let revents = Int32(fds[index].revents)
                    var flags: UInt32 = 0
                    if revents & Int32(POLLIN) != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
                    if revents & Int32(POLLOUT) != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
                    if revents & Int32(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
                    if revents & Int32(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
                    dbus_watch_handle(watch, flags)
                }
            }
            fireTimeouts()
        }
        // Jobs posted after the end run on their caller's thread; run those that raced the end here.
        let leftovers = jobs.withLock { state -> [@Sendable () -> Void] in
            state.finished = true
            let taken = state.queue + state.idle
            state.queue.removeAll()
            state.idle.removeAll()
            return taken
        }
        for job in leftovers { job() }
        finishedCondition.withLock { finishedCondition.broadcast() }
    }

    private func fireTimeouts() {
        let now = ContinuousClock.now
        var due: [OpaquePointer] = []
        for index in timeouts.indices {
            guard let deadline = timeouts[index].deadline, deadline <= now else { continue }
            due.append(timeouts[index].timeout)
            timeouts[index].deadline = Self.deadline(for: timeouts[index].timeout, from: now)
        }
        // Handling a timeout may remove others; handle only those still registered.
        for timeout in due where timeouts.contains(where: { $0.timeout == timeout }) {
            dbus_timeout_handle(timeout)
        }
    }

    static func deadline(for timeout: OpaquePointer, from now: ContinuousClock.Instant = .now) -> ContinuousClock.Instant? {
        guard dbus_timeout_get_enabled(timeout) != 0 else { return nil }
        return now.advanced(by: .milliseconds(Int(dbus_timeout_get_interval(timeout))))
    }
}
