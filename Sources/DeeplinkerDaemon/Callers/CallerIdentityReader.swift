import Foundation

/// Reads a caller's identity from `/proc` (SPEC §3 "Callers"), as xdg-desktop-portal does.
///
/// Everything is read relative to one open `/proc/PID` directory, so a pid reused while reading
/// cannot switch the files read to another process's; the process's start time (field 22 of
/// `stat`) must also be the same before and after. `.flatpak-info` is opened with `openat` on the
/// process's root directory, one path component and `O_NOFOLLOW`, so no symlink in the
/// sandbox can lead the daemon out of that root; it must be a regular file of at most
/// `maximumInfoSize` bytes. The caller must still ask the bus afterwards whether the connection
/// has the same pid.
public struct CallerIdentityReader: Sendable {
    /// The `/proc` to read (a fake tree in tests: `PID/stat`, `PID/cgroup`, `PID/root/`).
    public let procRoot: String
    public let maximumInfoSize: Int

    public init(procRoot: String = "/proc", maximumInfoSize: Int = 64 * 1024) {
        self.procRoot = procRoot
        self.maximumInfoSize = maximumInfoSize
    }

    /// The identity of process `pid`; a process that is gone or cannot be read is
    /// `.sandboxed(appID: nil)` with the reason.
    public func lookup(pid: UInt32) -> CallerLookup {
        guard pid > 0 else { return .unknown("the bus gave no process id") }
        let directory = "\(procRoot)/\(pid)"
        let process = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard process >= 0 else { return .unknown(Self.failure("open \(directory)", errno, pid: pid)) }
        defer { close(process) }
        do {
            let started = try startTime(process, pid: pid)
            let lookup = try identify(process, pid: pid)
            guard try startTime(process, pid: pid) == started else {
                return .unknown("process \(pid) was replaced while it was being read")
            }
            return lookup
        } catch {
            return .unknown(error.reason)
        }
    }

    /// Why a lookup stopped.
    private struct Failure: Error {
        let reason: String
    }

    private func identify(_ process: Int32, pid: UInt32) throws(Failure) -> CallerLookup {
        let root = openat(process, "root", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { throw Failure(reason: Self.failure("open /proc/\(pid)/root", errno, pid: pid)) }
        defer { close(root) }
        // O_NONBLOCK: a FIFO planted there must not block the open.
        let info = openat(root, ".flatpak-info", O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        if info >= 0 {
            defer { close(info) }
            let text = try readRegularFile(info, name: "/proc/\(pid)/root/.flatpak-info", pid: pid)
            do {
                return CallerLookup(.sandboxed(appID: try FlatpakInfo(parsing: text).appID))
            } catch {
                return .unknown("process \(pid): \(error)")
            }
        }
        switch errno {
        case ENOENT: break
        case ELOOP: throw Failure(reason: "process \(pid): /.flatpak-info is a symbolic link")
        default: throw Failure(reason: Self.failure("open /proc/\(pid)/root/.flatpak-info", errno, pid: pid))
        }
        let cgroupFile = openat(process, "cgroup", O_RDONLY | O_CLOEXEC)
        guard cgroupFile >= 0 else { throw Failure(reason: Self.failure("open /proc/\(pid)/cgroup", errno, pid: pid)) }
        defer { close(cgroupFile) }
        let cgroup = try readRegularFile(cgroupFile, name: "/proc/\(pid)/cgroup", pid: pid, requireRegular: false)
        return Self.snapName(cgroup: cgroup) != nil ? CallerLookup(.sandboxed(appID: nil)) : CallerLookup(.host)
    }

    /// The snap's name when a cgroup path has a `snap.<name>.*` component (systemd's scopes for
    /// snap apps, `snap.firefox.firefox-1f2e….scope`). A snap's name is no reliable app id.
    static func snapName(cgroup: String) -> String? {
        for line in cgroup.split(separator: "\n") {
            guard let path = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).last else { continue }
            for component in path.split(separator: "/") where component.hasPrefix("snap.") {
                let parts = component.split(separator: ".", omittingEmptySubsequences: false)
                if parts.count >= 3, !parts[1].isEmpty { return String(parts[1]) }
            }
        }
        return nil
    }

    /// The start time in clock ticks since boot, field 22 of `/proc/PID/stat`.
    private func startTime(_ process: Int32, pid: UInt32) throws(Failure) -> String {
        let file = openat(process, "stat", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw Failure(reason: Self.failure("open /proc/\(pid)/stat", errno, pid: pid)) }
        defer { close(file) }
        let stat = try readRegularFile(file, name: "/proc/\(pid)/stat", pid: pid, requireRegular: false)
        guard let start = Self.startTime(stat: stat) else {
            throw Failure(reason: "process \(pid): /proc/\(pid)/stat has no start time")
        }
        return start
    }

    /// Field 22 of a `stat` line; the command (field 2) is in parentheses and may hold spaces and
    /// parentheses itself, so fields are counted from its last `)`.
    static func startTime(stat: String) -> String? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command come fields 3, 4, …: field 22 is the 20th.
        return fields.count >= 20 ? String(fields[19]) : nil
    }

    /// Reads `fd` whole (at most `maximumInfoSize` bytes); refuses anything but a regular file
    /// when `requireRegular` (`/proc` files report size 0, so only the read is capped).
    private func readRegularFile(_ fd: Int32, name: String, pid: UInt32, requireRegular: Bool = true) throws(Failure) -> String {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw Failure(reason: Self.failure("stat \(name)", errno, pid: pid)) }
        if requireRegular {
            guard status.st_mode & S_IFMT == S_IFREG else { throw Failure(reason: "process \(pid): \(name) is not a regular file") }
            guard status.st_size <= maximumInfoSize else {
                throw Failure(reason: "process \(pid): \(name) is larger than \(maximumInfoSize) bytes")
            }
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= maximumInfoSize {
            let count = read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw Failure(reason: Self.failure("read \(name)", errno, pid: pid)) }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += chunk[0..<count]
        }
        throw Failure(reason: "process \(pid): \(name) is larger than \(maximumInfoSize) bytes")
    }

    /// "process PID is gone" for ENOENT and ESRCH, else the operation and the system's message.
    private static func failure(_ operation: String, _ code: Int32, pid: UInt32) -> String {
        if code == ENOENT || code == ESRCH { return "process \(pid) is gone" }
        return "process \(pid): cannot \(operation): \(String(cString: strerror(code)))"
    }
}
