#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Starts an app's process outside the daemon's own process tree as far as POSIX allows: a new
/// session (`setsid`), default signal dispositions and an empty signal mask (the daemon traps
/// SIGTERM/SIGHUP), stdin from `/dev/null`, no inherited descriptors but 0–2, and exactly the
/// environment given. A detached thread reaps it, so it never lingers as a zombie.
enum AppProcess {
    /// glibc's `POSIX_SPAWN_SETSID` (a GNU extension Swift's Glibc module does not import).
    private static let spawnSetSID: Int32 = 0x80

    /// A spawn that failed: the program and `errno`'s text.
    struct SpawnError: Error, CustomStringConvertible {
        var program: String
        var reason: String
        var description: String { "cannot start \(program): \(reason)" }
    }

    /// Spawns `argv` (the program looked up on `PATH` from `environment` when it has no `/`) in
    /// `directory` when given; returns its pid. `onExit` runs on the reaper thread with the wait status.
    static func spawn(
        _ argv: [String], environment: [String: String], directory: String? = nil,
        onExit: @escaping @Sendable (Int32) -> Void = { _ in }
    ) throws(SpawnError) -> pid_t {
        guard let program = argv.first, !program.isEmpty else { throw SpawnError(program: "", reason: "empty argv") }
        // posix_spawn_file_actions_addchdir_np is a GNU extension Swift does not import: `env -C`.
        if let directory { return try spawn(["/usr/bin/env", "-C", directory, "--"] + argv, environment: environment, onExit: onExit) }
        let path = try resolve(program, path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(spawnSetSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for fd in inheritableDescriptors() { posix_spawn_file_actions_addclose(&actions, fd) }

        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in cArgv { free(p) }
            for p in cEnv { free(p) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, cArgv, cEnv)
        guard status == 0 else { throw SpawnError(program: path, reason: String(cString: strerror(status))) }
        let child = pid
        Thread.detachNewThread {
            var wait: Int32 = 0
            while waitpid(child, &wait, 0) < 0 && errno == EINTR {}
            onExit(wait)
        }
        return child
    }

    /// The program's path: as given when it holds a `/`, else the first executable on `path`.
    private static func resolve(_ program: String, path: String) throws(SpawnError) -> String {
        if program.contains("/") { return program }
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(program)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        throw SpawnError(program: program, reason: "not found on PATH \(path)")
    }

    /// Descriptors above 2 without close-on-exec: the child must not inherit them (a closed one in
    /// between is harmless, glibc ignores EBADF for close actions).
    private static func inheritableDescriptors() -> [Int32] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return [] }
        return names.compactMap(Int32.init).filter { fd in
            fd > 2 && fcntl(fd, F_GETFD) >= 0 && fcntl(fd, F_GETFD) & FD_CLOEXEC == 0
        }
    }
}
