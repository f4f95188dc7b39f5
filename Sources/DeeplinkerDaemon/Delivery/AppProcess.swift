#if canImport(Glibc)
import Glibc
#endif
import Spawn

/// Starts an app's process outside the daemon's own process tree as far as POSIX allows: a new
/// session (`setsid`), and what every ``ChildProcess`` gets: default signal dispositions and an
/// empty signal mask (the daemon traps SIGTERM/SIGHUP), stdin from `/dev/null`, no inherited
/// descriptors but 0–2, exactly the environment given, and a reaper, so it never lingers as a
/// zombie.
enum AppProcess {
    /// A spawn that failed: the program and `errno`'s text.
    struct SpawnError: Error, CustomStringConvertible {
        var program: String
        var reason: String
        var description: String { "cannot start \(program): \(reason)" }
    }

    /// Spawns `argv` (the program looked up on `PATH` from `environment` when it has no `/`) in
    /// `directory` when given; returns its pid. `onExit` runs once the app has ended.
    static func spawn(
        _ argv: [String], environment: [String: String], directory: String? = nil,
        onExit: @escaping @Sendable (ChildProcess.Termination) -> Void = { _ in }
    ) throws(SpawnError) -> pid_t {
        guard let program = argv.first, !program.isEmpty else { throw SpawnError(program: "", reason: "empty argv") }
        // posix_spawn_file_actions_addchdir_np is a GNU extension Swift does not import: `env -C`.
        if let directory { return try spawn(["/usr/bin/env", "-C", directory, "--"] + argv, environment: environment, onExit: onExit) }
        let path = try resolve(program, path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
        let child: ChildProcess
        do {
            child = try ChildProcess(
                executable: path, arguments: Array(argv.dropFirst()), argumentZero: program, environment: environment,
                standardInput: .null, newSession: true)
        } catch {
            throw SpawnError(program: path, reason: String(cString: strerror(error.code)))
        }
        Task { onExit(await child.exit()) }
        return child.processIdentifier
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
}
