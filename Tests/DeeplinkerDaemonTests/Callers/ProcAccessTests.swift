import DeeplinkerTestSupport
import Foundation
import Testing

/// What the unit's settings leave the daemon of another process of the same user in `/proc`,
/// measured with the kernel's own rules (no systemd runs here): in a user namespace of its own
/// (`PrivateUsers=yes`) `/proc/PID/root` is refused while `mountinfo`, `cgroup` and `stat` are
/// not; a `/proc` mounted as `ProtectProc=invisible` and `ProcSubset=pid` mount it refuses nothing.
@Suite(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root to act as another user"))
struct ProcAccessTests {
    static let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]

    /// Runs `command` with `/bin/sh -c` as nobody, after `wrapper` (as nobody too).
    func asNobody(_ wrapper: [String], _ command: String) async throws -> TestProcess.Result {
        try await TestProcess.run(Self.asNobody[0], Array(Self.asNobody.dropFirst()) + wrapper + ["/bin/sh", "-c", command])
    }

    @Test func aReaderInItsOwnUserNamespaceCannotOpenAnotherProcesssRoot() async throws {
        let target = try TestProcess(
            executable: Self.asNobody[0],
            arguments: Array(Self.asNobody.dropFirst()) + ["/bin/sh", "-c", "echo ready; exec /usr/bin/sleep 600"], environment: [:])
        defer { target.stop() }
        try await target.waitForLine(containing: "ready")
        let pid = target.child.processIdentifier
        let root = "/proc/\(pid)/root/etc/hostname"

        let plain = try await asNobody([], "cat \(root)")
        #expect(plain.status == 0, "same user, same namespace: readable (\(plain.stderr))")
        let ownNamespace = try await asNobody(["/usr/bin/unshare", "--user"], "cat \(root)")
        #expect(ownNamespace.status != 0 && ownNamespace.stderr.contains("Permission denied"), "\(ownNamespace.stderr)")
        let metadata = try await asNobody(
            ["/usr/bin/unshare", "--user"], "grep -c . /proc/\(pid)/mountinfo && grep -c . /proc/\(pid)/cgroup && cat /proc/\(pid)/stat")
        #expect(metadata.status == 0, "mountinfo, cgroup and stat stay readable: \(metadata.stderr)")

        let hidden = try await TestProcess.run("/usr/bin/unshare", [
            "--mount", "--propagation", "private", "/bin/sh", "-c",
            "mount -t proc -o hidepid=invisible,subset=pid proc /proc && exec \(Self.asNobody.joined(separator: " ")) cat \(root)",
        ])
        #expect(hidden.status == 0, "hidepid=invisible,subset=pid keeps the same user's processes: \(hidden.stderr)")
    }
}
