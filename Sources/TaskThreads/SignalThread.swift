internal import CTaskThreads
import Glibc

/// Delivers signals as an `AsyncStream`, read by a thread of its own from a pipe that their
/// handler writes to. Unlike a dispatch signal source it starts no libdispatch worker (whose
/// pool's monitor would then wake the process every second for good).
public enum SignalThread {
    /// Traps `signals` (their default action no longer applies) and yields each one received, in
    /// order. Call once per process, before anything could send them.
    public static func trap(_ signals: [Int32], name: String = "signals") throws(SignalTrapError) -> AsyncStream<Int32> {
        let fd = signals.withUnsafeBufferPointer { ctaskthreads_trap_signals($0.baseAddress!, Int32($0.count)) }
        guard fd >= 0 else { throw SignalTrapError(errno: errno) }
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        NamedThread.start(name: name, stackSize: 128 * 1024) {
            var number: UInt8 = 0
            while true {
                let count = read(fd, &number, 1)
                if count == 1 {
                    continuation.yield(Int32(number))
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    continuation.finish()
                    return
                }
            }
        }
        return stream
    }
}

/// The signal handlers could not be installed; `errno` says why.
public struct SignalTrapError: Error, CustomStringConvertible {
    public let errno: Int32
    public var description: String { "cannot trap signals: \(String(cString: strerror(errno)))" }
}
