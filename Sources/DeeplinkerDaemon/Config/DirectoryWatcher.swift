import FoundationEssentials
import Glibc
import Synchronization
import TaskThreads

/// Calls `onChange` (coalesced over `delay`) when a file in one of `directories` is created,
/// written, moved or removed, and when one of them appears or goes away, using inotify. A
/// directory that does not exist is awaited in its nearest existing parent (SPEC §5).
///
/// A thread of its own waits in `poll` on the inotify descriptor and a pipe that ``stop()``
/// writes: no wake-up while nothing changes, and no dispatch source, whose handler would start
/// libdispatch's worker pool and with it a 1 Hz monitor that never stops.
final class DirectoryWatcher: Sendable {
    /// What stops the thread, or nil when nothing is watched.
    private let stopper: Stopper?

    /// Watches `directories` (relative ones from the current directory); `onNotice` hears, from
    /// the watching thread too, when a directory is awaited in a parent and when it appears.
    init(
        directories: [String], delay: Duration = .milliseconds(200), onFailure: (String) -> Void,
        onNotice: @escaping @Sendable (String) -> Void = { _ in }, onChange: @escaping @Sendable () -> Void
    ) {
        guard !directories.isEmpty else {
            stopper = nil
            return
        }
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else {
            onFailure("inotify is unavailable (\(String(cString: strerror(errno)))); route files reload on SIGHUP and Reload only")
            stopper = nil
            return
        }
        let current = FileManager.default.currentDirectoryPath
        let watches = InotifyWatches(
            inotify: fd, targets: directories.map { $0.hasPrefix("/") ? $0 : current + "/" + $0 }, notice: onNotice)
        // Armed before the thread starts: nothing that happens from here on is missed.
        watches.update()
        let stopper = Stopper()
        self.stopper = stopper
        NamedThread.start(name: "route-watch", stackSize: 128 * 1024) {
            Self.watch(watches, inotify: fd, stop: stopper.fd, coalescing: delay, onChange: onChange)
            close(fd)
        }
    }

    /// Waits for events until `stop` is written; after the first change of a burst, waits
    /// `coalescing` more (reading what else arrives) and then reports the burst once.
    private static func watch(
        _ watches: InotifyWatches, inotify fd: Int32, stop: Int32, coalescing: Duration, onChange: @Sendable () -> Void
    ) {
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
        // The deadline of the burst being coalesced.
        var due: ContinuousClock.Instant?
        while true {
            var timeout: Int32 = -1
            if let due {
                let (seconds, attoseconds) = max(.zero, due - .now).components
                timeout = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
            }
            let ready = poll(&fds, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            if fds[0].revents != 0 {
                if watches.handleQueued(), due == nil { due = .now + coalescing }
            }
            if let deadline = due, ContinuousClock.now >= deadline {
                due = nil
                onChange()
            }
        }
    }

    /// Stops watching; later calls do nothing.
    func stop() {
        stopper?.stop()
    }

    deinit {
        stop()
    }
}

/// The pipe that ends the watching thread: closed once neither the watcher nor the thread holds
/// it, so a late ``stop()`` never writes to a descriptor reused for something else. (Children are
/// spawned with every descriptor past the three standard ones closed, see `ChildProcess`.)
private final class Stopper: Sendable {
    /// The end the thread polls.
    let fd: Int32
    private let writeEnd: Int32
    private let stopped = Atomic<Bool>(false)

    init() {
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        fd = fds[0]
        writeEnd = fds[1]
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)
    }

    deinit {
        close(fd)
        close(writeEnd)
    }
}
