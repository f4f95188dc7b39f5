import FoundationEssentials
import Glibc

/// `sd_notify(3)` without libsystemd: datagrams to `$NOTIFY_SOCKET` (`READY=1`, `STATUS=…`,
/// `WATCHDOG=1`, `RELOADING=1`, `STOPPING=1`; SPEC §9).
struct SystemdNotifier: Sendable {
    let socketPath: String?
    /// Half the watchdog period systemd asked for, or nil when no watchdog is armed.
    let watchdogInterval: Duration?

    init(environment: [String: String]) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        watchdogInterval = environment["WATCHDOG_USEC"].flatMap(Int64.init).flatMap { $0 > 0 ? .microseconds($0 / 2) : nil }
    }

    /// Whether a service manager listens (`NOTIFY_SOCKET` is set).
    var isEnabled: Bool { socketPath != nil }

    /// `RELOADING=1` with the `MONOTONIC_USEC` systemd wants beside it (sd_notify(3)).
    static func reloading() -> String {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return "RELOADING=1\nMONOTONIC_USEC=\(Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000)"
    }

    /// Sends one notification (several `KEY=value` lines are one datagram); silently does nothing
    /// outside systemd.
    func notify(_ state: String) {
        guard let socketPath else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // A leading '@' names an abstract socket.
        var path = Array(socketPath.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        guard path.count < MemoryLayout.size(ofValue: address.sun_path) else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.enumerated() { buffer[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.count)
        let message = Array(state.utf8)
        _ = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sockaddrPointer in
                sendto(fd, message, message.count, Int32(MSG_NOSIGNAL), sockaddrPointer, length)
            }
        }
    }
}
