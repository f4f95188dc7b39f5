import Foundation

/// `sd_notify(3)` without libsystemd: datagrams to `$NOTIFY_SOCKET` (`READY=1`, `WATCHDOG=1`).
struct SystemdNotifier: Sendable {
    let socketPath: String?
    /// Half the watchdog period systemd asked for, or nil when no watchdog is armed.
    let watchdogInterval: Duration?

    init(environment: [String: String]) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        watchdogInterval = environment["WATCHDOG_USEC"].flatMap(Int64.init).map { .microseconds($0 / 2) }
    }

    /// Sends one notification; silently does nothing outside systemd.
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
                sendto(fd, message, message.count, 0, sockaddrPointer, length)
            }
        }
    }
}
