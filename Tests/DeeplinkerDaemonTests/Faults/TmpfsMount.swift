import DeeplinkerTestSupport
import Foundation

/// A small real tmpfs mounted on a directory for one test, so "disk full" and "read-only file system"
/// are the kernel's own errors, not simulated ones. Needs root (or CAP_SYS_ADMIN); tests check
/// ``isAvailable`` and are skipped with that reason where mounting is refused.
final class TmpfsMount: @unchecked Sendable {
    let path: String
    private var mounted = true

    /// Mounts a tmpfs of `size` (mount(8) syntax, e.g. `1m`) on `path`, which must exist.
    init(path: String, size: String) throws {
        self.path = path
        try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", path])
    }

    /// Whether this process may mount a tmpfs (tried once, on a scratch directory).
    static let isAvailable: Bool = {
        guard let probe = try? TemporaryDirectory(prefix: "deeplinker-tmpfs-probe"),
            let mount = try? TmpfsMount(path: probe.path, size: "64k")
        else { return false }
        mount.unmount()
        return true
    }()

    /// Fills the file system with a filler file until the kernel says ENOSPC.
    func fill() throws {
        let fd = open(path + "/filler", O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0xAB, count: 4096)
        while true {
            let written = chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == ENOSPC { break }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            if written < chunk.count {
                // Partial write: the next one gets ENOSPC; a 1-byte writer finishes the last page.
                continue
            }
        }
    }

    /// Frees the space ``fill()`` took.
    func free() throws {
        try FileManager.default.removeItem(atPath: path + "/filler")
    }

    /// Remounts read-only (`true`) or read-write (`false`), as a failing disk or an admin would.
    func setReadOnly(_ readOnly: Bool) throws {
        try Self.run("/bin/mount", ["-o", readOnly ? "remount,ro" : "remount,rw", path])
    }

    /// Unmounts (lazily, so a still-open database file cannot keep the mount busy).
    func unmount() {
        guard mounted else { return }
        mounted = false
        try? Self.run("/bin/umount", ["-l", path])
    }

    deinit { unmount() }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let status = try TestProcess.runBlocking(tool, arguments)
        guard status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "\(tool) \(arguments) exited \(status)"])
        }
    }
}
