import DeeplinkerCore
import DBusKit
import TaskThreads

/// A manually advanced clock: engine and daemon tests control time (TTL, de-duplication) without
/// sleeping.
public final class TestClock: EngineClock {
    private let current: LockedValue<Int64>

    public init(start: Int64 = 1_700_000_000_000_000) {
        current = LockedValue(start)
    }

    public func nowMicroseconds() -> Int64 {
        current.withLock { $0 }
    }

    /// Moves time forward by `duration`.
    public func advance(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        current.withLock { $0 += seconds * 1_000_000 + attoseconds / 1_000_000_000_000 }
    }
}
