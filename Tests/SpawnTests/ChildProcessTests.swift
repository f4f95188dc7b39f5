import Foundation
import Spawn
import Testing

/// `ChildProcess`: exit statuses, a clean signal state and descriptor table in the child, and the
/// waits with time-outs.
@Suite struct ChildProcessTests {
    /// Runs `script` with /bin/sh and returns its stdout and how it ended.
    private func shell(_ script: String) async throws -> (output: String, termination: ChildProcess.Termination) {
        try await finish(ChildProcess(executable: "/bin/sh", arguments: ["-c", script], standardOutput: .pipe))
    }

    /// All of `child`'s stdout, and how it ended.
    private func finish(_ child: ChildProcess) async -> (output: String, termination: ChildProcess.Termination) {
        let fd = child.standardOutput!
        defer { close(fd) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output += chunk[0..<count]
        }
        return (String(decoding: output, as: UTF8.self), await child.exit())
    }

    @Test func exitStatusAndSignalAreDecoded() async throws {
        #expect(try await shell("exit 3").termination == .exited(3))
        #expect(try await shell("exit 0").termination == .exited(0))
        let killed = try await shell("kill -9 $$").termination
        #expect(killed == .signalled(SIGKILL))
        #expect(killed.status == SIGKILL)
    }

    @Test func argumentsAndEnvironmentArePassedAsGiven() async throws {
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "printf '%s|%s|%s' \"$1\" \"$GREETING\" \"${HOME-unset}\"", "sh", "a b {target}"],
            environment: ["GREETING": "hello world"], standardOutput: .pipe)
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(child.standardOutput!, &buffer, buffer.count)
        close(child.standardOutput!)
        #expect(String(decoding: buffer[0..<max(count, 0)], as: UTF8.self) == "a b {target}|hello world|unset")
        #expect(await child.exit() == .exited(0))
    }

    /// A thread that blocks SIGTERM and SIGCHLD and ignores SIGPIPE (as Swift's worker threads and
    /// runtime do) still starts a child with nothing blocked and nothing ignored.
    @Test func childStartsWithNoSignalBlockedOrIgnored() async throws {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        sigaddset(&blocked, SIGCHLD)
        var saved = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &saved)
        let previous = Glibc.signal(SIGPIPE, SIG_IGN)
        defer {
            pthread_sigmask(SIG_SETMASK, &saved, nil)
            Glibc.signal(SIGPIPE, previous)
        }
        let (output, termination) = try await shell("grep -E '^Sig(Blk|Ign)' /proc/self/status")
        #expect(termination == .exited(0))
        let masks = Dictionary(uniqueKeysWithValues: output.split(separator: "\n").compactMap { line -> (String, UInt64)? in
            let parts = line.split(separator: ":")
            guard parts.count == 2, let mask = UInt64(parts[1].trimmingCharacters(in: .whitespaces), radix: 16) else { return nil }
            return (String(parts[0]), mask)
        })
        #expect(masks["SigBlk"] == 0, "\(output)")
        // Standard signals only (1–31, bits 0–30): glibc's posix_spawn leaves its own two internal real-time
        // signals (32, 33) ignored, and every glibc program sets them up again when it starts.
        #expect(masks["SigIgn"].map { $0 & 0x7fff_ffff } == 0, "\(output)")
    }

    /// A descriptor this process opened without close-on-exec does not reach the child.
    @Test func childGetsOnlyItsThreeDescriptors() async throws {
        let open = Glibc.open("/dev/null", O_RDONLY)
        #expect(open > 2)
        defer { close(open) }
        let (output, _) = try await shell("ls /proc/$$/fd")
        let descriptors = output.split(separator: "\n").compactMap { Int($0) }
        #expect(!descriptors.contains(Int(open)), "\(descriptors)")
        #expect(Set(descriptors).isSuperset(of: [0, 1, 2]))
    }

    /// A launched app leads a session of its own (session id = its pid) and sees the name it was
    /// launched by as argv[0]; by default it does neither.
    @Test(arguments: [true, false])
    func newSessionAndArgumentZero(newSession: Bool) async throws {
        let script = #"echo $$ $(cut -d' ' -f6 /proc/$$/stat) $(tr '\0' '\n' < /proc/$$/cmdline | head -1)"#
        let (named, termination) = try await finish(ChildProcess(
            executable: "/bin/sh", arguments: ["-c", script], argumentZero: newSession ? "sh-by-name" : nil,
            standardOutput: .pipe, newSession: newSession))
        #expect(termination == .exited(0))
        let fields = named.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        try #require(fields.count == 3, "\(named)")
        #expect((fields[0] == fields[1]) == newSession, "pid \(fields[0]), session \(fields[1])")
        #expect(fields[2] == (newSession ? "sh-by-name" : "/bin/sh"))
    }

    @Test func missingProgramIsRefusedWithItsName() throws {
        let error = #expect(throws: SpawnError.self) {
            _ = try ChildProcess(executable: "/nonexistent/deeplinker-helper")
        }
        #expect(error?.code == ENOENT)
        #expect(error?.description.contains("/nonexistent/deeplinker-helper") == true)
    }

    @Test func hangingChildIsKilledAfterItsTimeout() async throws {
        let child = try ChildProcess(executable: "/bin/sleep", arguments: ["60"])
        #expect(await child.exit(killingAfter: .milliseconds(50)) == nil)
        #expect(child.termination == .signalled(SIGKILL))
        #expect(!child.signal(SIGTERM), "a reaped child is never signalled again")
    }

    @Test func childThatExitsInTimeIsNotKilled() async throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "exit 4"])
        #expect(await child.exit(killingAfter: .seconds(30)) == .exited(4))
    }

    @Test func blockingWaitHonoursItsTimeout() throws {
        let child = try ChildProcess(executable: "/bin/sleep", arguments: ["60"])
        #expect(child.waitUntilExit(timeout: .milliseconds(20)) == nil)
        #expect(child.isRunning)
        child.kill()
        #expect(child.termination == .signalled(SIGKILL))
    }

    /// A child's stdout can be one of ours (the CLI sends update-desktop-database's to stderr).
    @Test func descriptorStreamIsACopyOfOurs() async throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "echo to-the-copy"], standardOutput: .descriptor(fds[1]))
        close(fds[1])
        #expect(await child.exit() == .exited(0))
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(fds[0], &buffer, buffer.count)
        close(fds[0])
        #expect(String(decoding: buffer[0..<max(count, 0)], as: UTF8.self) == "to-the-copy\n")
    }
}
