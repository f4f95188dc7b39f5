import CSpawn
import TaskThreads

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A program started with `posix_spawn`, with no shell: the one way Deeplinker's daemon, CLI,
/// benchmark and tests run other programs.
///
/// Foundation's `Process` leaks about a dozen objects for every process given a
/// `terminationHandler` (its run-loop source and the process keep each other alive; reproduced in
/// `scripts/sanitizers/process-leak`), which LeakSanitizer reports. This type holds nothing after
/// the exit: one thread per child waits in `waitpid` and ends with it. The child starts with no
/// signal blocked and every signal at its default action, whatever the calling thread had (Swift's
/// worker threads block most signals, and a `dbus-daemon` started with SIGCHLD blocked never sees
/// its activated services exit), and with no descriptor of ours beyond the three it is given.
public final class ChildProcess: Sendable {
    /// The child's process id (still valid for `/proc` until the exit is reaped).
    public let processIdentifier: pid_t
    /// The parent's ends of the pipes asked for with ``Stream/pipe`` (write end for stdin, read
    /// ends for stdout and stderr); the caller reads, writes and closes them.
    public let standardInput: Int32?
    public let standardOutput: Int32?
    public let standardError: Int32?
    private let monitor: ExitMonitor

    /// Starts `executable` (a path; nothing is looked up on `PATH`) with `arguments` and
    /// `environment` (nil: this process's own). The program sees `argumentZero` as `argv[0]`
    /// (default: `executable`); with `newSession` it starts a session of its own (`setsid`), as a
    /// launched app does.
    public init(
        executable: String, arguments: [String] = [], argumentZero: String? = nil, environment: [String: String]? = nil,
        standardInput stdin: Stream = .null, standardOutput stdout: Stream = .inherit, standardError stderr: Stream = .inherit,
        newSession: Bool = false
    ) throws(SpawnError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in 1..<65 where signal != SIGKILL && signal != SIGSTOP { sigaddset(&defaults, Int32(signal)) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (newSession ? CSPAWN_SETSID : 0)))

        // Both ends are close-on-exec; dup2 onto 0, 1, 2 in the child clears the flag there.
        var parentEnds: [Int32?] = [nil, nil, nil]
        var childEnds: [Int32] = []
        func closeAll() {
            for fd in childEnds { close(fd) }
            for case let fd? in parentEnds { close(fd) }
        }
        for (target, stream) in [stdin, stdout, stderr].enumerated() {
            switch stream {
            case .inherit:
                break
            case .null:
                posix_spawn_file_actions_addopen(&actions, Int32(target), "/dev/null", O_RDWR, 0)
            case .descriptor(let fd):
                posix_spawn_file_actions_adddup2(&actions, fd, Int32(target))
            case .pipe:
                var fds: [Int32] = [-1, -1]
                guard cspawn_pipe_cloexec(&fds) == 0 else {
                    let code = errno
                    closeAll()
                    throw SpawnError(executable: executable, code: code)
                }
                let (childEnd, parentEnd) = target == 0 ? (fds[0], fds[1]) : (fds[1], fds[0])
                childEnds.append(childEnd)
                parentEnds[target] = parentEnd
                posix_spawn_file_actions_adddup2(&actions, childEnd, Int32(target))
            }
        }
        cspawn_addclosefrom(&actions, 3)

        let argv = CStringArray([argumentZero ?? executable] + arguments)
        let envp = environment.map { CStringArray($0.map { "\($0.key)=\($0.value)" }) }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv.pointers, envp?.pointers ?? environ)
        for fd in childEnds { close(fd) }
        guard status == 0 else {
            for case let fd? in parentEnds { close(fd) }
            throw SpawnError(executable: executable, code: status)
        }
        processIdentifier = pid
        standardInput = parentEnds[0]
        standardOutput = parentEnds[1]
        standardError = parentEnds[2]
        monitor = ExitMonitor(pid: pid)
    }

    /// How the child ended, or nil while it runs.
    public var termination: Termination? { monitor.termination }

    public var isRunning: Bool { termination == nil }

    /// Sends `signal` unless the child has already been reaped (so a reused pid is never
    /// signalled); returns whether it was sent.
    @discardableResult
    public func signal(_ signal: Int32) -> Bool {
        monitor.ifRunning { Glibc.kill(processIdentifier, signal) == 0 } ?? false
    }

    /// Waits for the exit without blocking a thread.
    public func exit() async -> Termination {
        await monitor.exit()
    }

    /// Waits for the exit; past `timeout` kills the child (SIGKILL) and returns nil once it is
    /// reaped.
    public func exit(killingAfter timeout: Duration) async -> Termination? {
        let killer = Task {
            do { try await TimerThread.shared.sleep(for: timeout) } catch { return false }
            return signal(SIGKILL)
        }
        let termination = await monitor.exit()
        killer.cancel()
        return await killer.value ? nil : termination
    }

    /// Blocks the calling thread until the exit (for code that cannot await: a `deinit`, a
    /// static initialiser).
    @discardableResult
    public func waitUntilExit() -> Termination {
        monitor.wait(timeout: nil)!
    }

    /// Blocks until the exit or until `timeout` has passed (then nil; the child goes on).
    public func waitUntilExit(timeout: Duration) -> Termination? {
        monitor.wait(timeout: timeout)
    }

    /// Kills the child (SIGKILL: a child may block SIGTERM) and waits until it is reaped.
    public func kill() {
        signal(SIGKILL)
        waitUntilExit()
    }
}
