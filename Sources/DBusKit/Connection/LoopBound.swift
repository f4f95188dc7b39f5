/// State confined to a connection's loop thread: every access
/// checks that it happens there, so the confinement the type system cannot see is enforced at run
/// time instead of assumed.
final class LoopBound<Value>: @unchecked Sendable {
    private let loop: EventLoop
    private var stored: Value

    init(_ value: Value, loop: EventLoop) {
        self.loop = loop
        self.stored = value
    }

    /// The value; only on the loop (the thread, or the ordered queue that runs jobs after it ended).
    var value: Value {
        get {
            precondition(loop.isLoopContext, "loop-bound state read off the D-Bus loop thread")
            return stored
        }
        _modify {
            precondition(loop.isLoopContext, "loop-bound state changed off the D-Bus loop thread")
            yield &stored
        }
    }
}
