import DeeplinkerCore
import TaskThreads

/// A delivery already sent: its outcome arrives on the bus thread with the app's reply, and
/// ``outcome()`` waits for it. The outcome passes through a lock and the continuation only wakes
/// the task (ThreadSanitizer's continuation blind spot, see `withHandOff` in DBusKit).
final class DeliveryInFlight: Sendable {
    private struct State {
        var outcome: DeliveryOutcome?
        var waiter: CheckedContinuation<Void, Never>?
        var callback: (@Sendable (DeliveryOutcome) -> Void)?
    }

    private let state = LockedValue(State())

    /// Settles the outcome (once) and wakes the waiter.
    func finish(_ outcome: DeliveryOutcome) {
        let (waiter, callback) = state.withLock { state -> (CheckedContinuation<Void, Never>?, (@Sendable (DeliveryOutcome) -> Void)?) in
            guard state.outcome == nil else { return (nil, nil) }
            state.outcome = outcome
            defer {
                state.waiter = nil
                state.callback = nil
            }
            return (state.waiter, state.callback)
        }
        waiter?.resume()
        callback?(outcome)
    }

    /// Runs `body` with the outcome on the thread that settles it (the bus thread, for a reply),
    /// at once if it is known: no task to wake while the app handles the route. One callback.
    func whenFinished(_ body: @escaping @Sendable (DeliveryOutcome) -> Void) {
        let known = state.withLock { state -> DeliveryOutcome? in
            if let outcome = state.outcome { return outcome }
            state.callback = body
            return nil
        }
        if let known { body(known) }
    }

    /// The outcome, once the app answered (or the call failed or timed out). One waiter.
    func outcome() async -> DeliveryOutcome {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.outcome != nil { return true }
                state.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
        return state.withLock { $0.outcome }!
    }
}
