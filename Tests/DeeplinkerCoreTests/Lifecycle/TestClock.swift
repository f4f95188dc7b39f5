import DeeplinkerCore
import Foundation

/// A manually advanced clock so lifecycle tests control time without sleeping.
final class TestClock: EngineClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Int64

    init(start: Int64 = 1_700_000_000_000_000) {
        current = start
    }

    func nowMicroseconds() -> Int64 {
        lock.withLock { current }
    }

    /// Moves time forward by `duration`.
    func advance(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        lock.withLock { current += seconds * 1_000_000 + attoseconds / 1_000_000_000_000 }
    }
}
