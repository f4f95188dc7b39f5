import DBusKit
import DeeplinkerCore
import TaskThreads

/// A delivery already sent: its outcome arrives on the bus thread with the app's reply and goes
/// to one callback (``whenFinished(_:)``) or one waiter (``outcome()``).
final class DeliveryInFlight: Sendable {
    private struct State {
        var outcome: DeliveryOutcome?
        var callback: (@Sendable (DeliveryOutcome) -> Void)?
    }

    private let state = LockedValue(State())

    /// Settles the outcome (once) and hands it to the callback.
    func finish(_ outcome: DeliveryOutcome) {
        let callback = state.withLock { state -> (@Sendable (DeliveryOutcome) -> Void)? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.callback = nil }
            return state.callback
        }
        callback?(outcome)
    }

    /// Runs `body` with the outcome on the thread that settles it (the bus thread, for a reply),
    /// at once if it is known: no task to wake while the app handles the route.
    func whenFinished(_ body: @escaping @Sendable (DeliveryOutcome) -> Void) {
        let known = state.withLock { state -> DeliveryOutcome? in
            if let outcome = state.outcome { return outcome }
            state.callback = body
            return nil
        }
        if let known { body(known) }
    }

    /// The outcome, once the app answered (or the call failed or timed out).
    func outcome() async -> DeliveryOutcome {
        await withHandOff { (handOff: HandOff<DeliveryOutcome, Never>) in
            whenFinished { handOff.resume(returning: $0) }
        }
    }
}
