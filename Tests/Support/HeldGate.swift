import TaskThreads

/// A gate that a hook on another thread passes (a store's `beforeSync`, say): open, it passes at
/// once; closed, that thread waits in ``pass(_:)`` until ``open()``. Every pass that has to wait is
/// recorded first, so a test can wait until a thread is held there.
public final class HeldGate: @unchecked Sendable {
    private let condition = ThreadCondition()
    private var closed = false  // guarded by `condition`
    /// The value of every pass that had to wait, as it started waiting.
    public let held = Recorder<Int>()

    public init() {}

    /// Holds the passes from now on.
    public func close() { condition.withLock { closed = true } }

    /// Lets every held pass go on, and later ones through.
    public func open() {
        condition.withLock {
            closed = false
            condition.broadcast()
        }
    }

    /// Returns at once while open; else records `value` and waits until ``open()``.
    public func pass(_ value: Int) {
        guard condition.withLock({ closed }) else { return }
        held.put(value)
        condition.withLock { while closed { condition.wait() } }
    }
}
