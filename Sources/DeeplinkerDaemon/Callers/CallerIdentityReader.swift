import DeeplinkerCore
import FoundationEssentials
import Glibc

/// Reads a caller's identity from `/proc` (SPEC §3 "Callers"), as xdg-desktop-portal does.
///
/// Everything is read relative to one open `/proc/PID` directory, so a pid reused while reading
/// cannot switch the files read to another process's; the process's start time (field 22 of
/// `stat`) must also be the same before and after. `.flatpak-info` is opened with `openat` on the
/// process's root directory, one path component and `O_NOFOLLOW`, so no symlink in the
/// sandbox can lead the daemon out of that root; it must be a regular file of at most
/// `maximumInfoSize` bytes. The caller must still ask the bus afterwards whether the connection
/// has the same pid.
///
/// A daemon in a user namespace of its own (the unit's `PrivateUsers=`) may not ptrace-read any
/// process outside it, so `/proc/PID/root` is refused for every caller; it then reads
/// `mountinfo` and `cgroup`, which need no such access (``identifyWithoutRoot(_:pid:)``).
public struct CallerIdentityReader: Sendable {
    /// The `/proc` to read (a fake tree in tests: `PID/stat`, `PID/cgroup`, `PID/root/`).
    public let procRoot: String
    public let maximumInfoSize: Int

    /// The most read of a `/proc` file.
    static let maximumProcFileSize = 4 << 20

    public init(procRoot: String = "/proc", maximumInfoSize: Int = 64 * 1024) {
        self.procRoot = procRoot
        self.maximumInfoSize = maximumInfoSize
    }

    /// The identity of process `pid`; a process that is gone or cannot be read is
    /// `.sandboxed(appID: nil)` with the reason.
    public func lookup(pid: UInt32) -> CallerLookup {
        lookup(pid: pid, readingRoot: true)
    }

    /// The lookup; without `readingRoot`, as when `/proc/PID/root` is refused (for tests).
    func lookup(pid: UInt32, readingRoot: Bool) -> CallerLookup {
        guard pid > 0 else { return .unknown("the bus gave no process id") }
        let directory = "\(procRoot)/\(pid)"
        let process = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard process >= 0 else { return .unknown(Self.failure("open \(directory)", errno, pid: pid)) }
        defer { close(process) }
        do {
            let started = try startTime(process, pid: pid)
            let lookup = try readingRoot ? identify(process, pid: pid) : identifyWithoutRoot(process, pid: pid)
            guard try startTime(process, pid: pid) == started else {
                return .unknown("process \(pid) was replaced while it was being read")
            }
            return lookup
        } catch {
            return .unknown(error.reason)
        }
    }

    /// Why a lookup stopped.
    struct Failure: Error {
        let reason: String
    }

    private func identify(_ process: Int32, pid: UInt32) throws(Failure) -> CallerLookup {
        let root = openat(process, "root", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else {
            let code = errno
            // Refused, not gone: the daemon runs in a user namespace of its own (the unit's
            // PrivateUsers=), where no process outside it may be ptrace-read.
            guard code == EACCES || code == EPERM else {
                throw Failure(reason: Self.failure("open /proc/\(pid)/root", code, pid: pid))
            }
            return try identifyWithoutRoot(process, pid: pid)
        }
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
        let code = errno
        switch code {
        case ENOENT: break
        case ELOOP: throw Failure(reason: "process \(pid): /.flatpak-info is a symbolic link")
        default: throw Failure(reason: Self.failure("open /proc/\(pid)/root/.flatpak-info", code, pid: pid))
        }
        let cgroup = try readProcFile(process, "cgroup", pid: pid)
        return Self.snapName(cgroup: cgroup) != nil ? CallerLookup(.sandboxed(appID: nil)) : CallerLookup(.host)
    }

    /// The lookup when `/proc/PID/root` is refused: `mountinfo` and `cgroup` need no ptrace access.
    /// A process with a mount at `/.flatpak-info` is a Flatpak app (its sandbox cannot unmount
    /// it), named by the `app-flatpak-<app id>-<n>.scope` that `flatpak run` enters before it
    /// starts the app's bus proxy; without that scope it has no app id.
    func identifyWithoutRoot(_ process: Int32, pid: UInt32) throws(Failure) -> CallerLookup {
        let mountinfo = try readProcFile(process, "mountinfo", pid: pid)
        let cgroup = try readProcFile(process, "cgroup", pid: pid)
        // The substring test spares parsing every mount of the many callers that have none.
        if mountinfo.contains(" /.flatpak-info "), Self.mountPoints(mountinfo: mountinfo).contains("/.flatpak-info") {
            guard let appID = Self.flatpakAppID(cgroup: cgroup) else {
                return .unknown("process \(pid) has a /.flatpak-info that cannot be read, and no Flatpak scope")
            }
            return CallerLookup(.sandboxed(appID: appID))
        }
        return Self.snapName(cgroup: cgroup) != nil ? CallerLookup(.sandboxed(appID: nil)) : CallerLookup(.host)
    }

    /// The mount points of a `mountinfo` text (field 5, octal escapes such as `\040` decoded).
    static func mountPoints(mountinfo: String) -> [String] {
        mountinfo.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            return fields.count > 4 ? unescapeOctal(fields[4]) : nil
        }
    }

    /// The app id in a cgroup path component `app-flatpak-<escaped app id>-<n>.scope`, unescaped as
    /// `systemd-escape` escaped it (`-` is `\x2d`), when it is a valid app id.
    static func flatpakAppID(cgroup: String) -> String? {
        for line in cgroup.split(separator: "\n") {
            guard let path = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).last else { continue }
            for component in path.split(separator: "/") where component.hasPrefix("app-flatpak-") && component.hasSuffix(".scope") {
                let body = component.dropFirst("app-flatpak-".count).dropLast(".scope".count)
                guard let dash = body.lastIndex(of: "-") else { continue }
                let instance = body[body.index(after: dash)...]
                guard !instance.isEmpty, instance.allSatisfy({ ("0"..."9").contains($0) }) else { continue }
                let appID = unescapeHex(body[..<dash])
                if AppID.isValid(appID) { return appID }
            }
        }
        return nil
    }

    private static func unescapeOctal(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.first {
            if byte == UInt8(ascii: "\\"), utf8.count >= 4,
               let value = UInt8(String(decoding: utf8.dropFirst().prefix(3), as: UTF8.self), radix: 8) {
                bytes.append(value)
                utf8 = utf8.dropFirst(4)
            } else {
                bytes.append(byte)
                utf8 = utf8.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func unescapeHex(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.first {
            if byte == UInt8(ascii: "\\"), utf8.count >= 4, utf8.dropFirst().first == UInt8(ascii: "x"),
               let value = UInt8(String(decoding: utf8.dropFirst(2).prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(4)
            } else {
                bytes.append(byte)
                utf8 = utf8.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The snap's name when a cgroup path has a `snap.<name>.*` component (systemd's scopes for
    /// snap apps, `snap.firefox.firefox-1f2e….scope`). A snap's name is no reliable app id.
    static func snapName(cgroup: String) -> String? {
        guard cgroup.contains("/snap.") else { return nil }
        for line in cgroup.split(separator: "\n") {
            guard let path = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).last else { continue }
            for component in path.split(separator: "/") where component.hasPrefix("snap.") {
                let parts = component.split(separator: ".", omittingEmptySubsequences: false)
                if parts.count >= 3, !parts[1].isEmpty { return String(parts[1]) }
            }
        }
        return nil
    }

    /// The text of `/proc/PID/<name>`, read through the open `/proc/PID`.
    private func readProcFile(_ process: Int32, _ name: String, pid: UInt32) throws(Failure) -> String {
        let file = openat(process, name, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw Failure(reason: Self.failure("open /proc/\(pid)/\(name)", errno, pid: pid)) }
        defer { close(file) }
        return try readRegularFile(file, name: "/proc/\(pid)/\(name)", pid: pid, requireRegular: false)
    }

    /// The start time in clock ticks since boot, field 22 of `/proc/PID/stat`.
    private func startTime(_ process: Int32, pid: UInt32) throws(Failure) -> String {
        let stat = try readProcFile(process, "stat", pid: pid)
        guard let start = Self.startTime(stat: stat) else {
            throw Failure(reason: "process \(pid): /proc/\(pid)/stat has no start time")
        }
        return start
    }

    /// Field 22 of a `stat` line; the command (field 2) is in parentheses and may hold spaces and
    /// parentheses itself, so fields are counted from its last `)`.
    static func startTime(stat: String) -> String? {
        let bytes = stat.utf8
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[bytes.index(after: close)...].split(separator: UInt8(ascii: " "), maxSplits: 20)
        // After the command come fields 3, 4, …: field 22 is the 20th.
        return fields.count >= 20 ? String(decoding: fields[19], as: UTF8.self) : nil
    }

    /// Reads `fd` whole (at most `maximumInfoSize` bytes); refuses anything but a regular file
    /// when `requireRegular` (`/proc` files report size 0, so only the read is capped).
    private func readRegularFile(_ fd: Int32, name: String, pid: UInt32, requireRegular: Bool = true) throws(Failure) -> String {
        // `/proc` texts (a `mountinfo` with many mounts) may be larger than any `.flatpak-info`.
        let maximumInfoSize = requireRegular ? maximumInfoSize : max(maximumInfoSize, Self.maximumProcFileSize)
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
