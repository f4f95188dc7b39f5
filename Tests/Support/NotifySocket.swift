import Foundation

/// The service manager's end of `NOTIFY_SOCKET` for tests: an AF_UNIX datagram socket in a
/// temporary directory whose messages can be awaited one by one (with a time-out, never a sleep).
public final class NotifySocket: @unchecked Sendable {
    public let path: String
    private let fd: Int32

    /// Binds `DIRECTORY/notify`.
    public init(directory: String) throws {
        path = directory + "/notify"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0 else { throw POSIXError(.EADDRINUSE) }
    }

    deinit { close(fd) }

    /// The next datagram, or nil when none arrives within `timeout`.
    public func next(timeout: Duration = .seconds(15)) -> String? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(timeout.components.seconds * 1000)
        guard poll(&poller, 1, milliseconds) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
    }

    /// The next datagram that is not a watchdog ping (those arrive at their own pace); counts the pings.
    public func nextState(pings: inout Int, timeout: Duration = .seconds(15)) -> String? {
        while let message = next(timeout: timeout) {
            if message == "WATCHDOG=1" {
                pings += 1
                continue
            }
            return message
        }
        return nil
    }
}
