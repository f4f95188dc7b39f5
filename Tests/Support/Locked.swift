import TaskThreads

/// A value behind a lock (the package's `LockedValue`, which ThreadSanitizer sees), shareable by reference: state that
/// handlers on the bus thread and the test share, such as a stand-in's answer or a counter.
public final class Locked<Value: Sendable>: Sendable {
    private let mutex: LockedValue<Value>

    public init(_ value: Value) { mutex = LockedValue(value) }

    public var value: Value { mutex.withLock { $0 } }

    public func set(_ value: Value) { mutex.withLock { $0 = value } }

    public func mutate<R: Sendable>(_ body: (inout Value) -> R) -> R { mutex.withLock { body(&$0) } }
}

extension Locked where Value == Int {
    /// Adds one and returns the new value.
    public func increment() -> Int { mutate { $0 += 1; return $0 } }
}
