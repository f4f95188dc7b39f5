#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real wall clock (`CLOCK_REALTIME`), used by the daemon; timestamps are stored and shown to users.
public struct SystemEngineClock: EngineClock {
    public init() {}

    public func nowMicroseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1_000
    }
}
