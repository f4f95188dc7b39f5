import DeeplinkerCore

extension DaemonCore {
    /// Tells the sweep about the engine's next expiry when it is earlier than the one scheduled (a
    /// later one only costs a wake-up that finds nothing and reschedules). `rescheduled` after a
    /// sweep, when the scheduled deadline has been used up.
    func scheduleSweep(rescheduled: Bool = false) {
        if rescheduled { sweepDeadline = nil }
        guard let next = engine.nextExpiry() else { return }
        if let scheduled = sweepDeadline, scheduled <= next { return }
        sweepDeadline = next
        sweeps.wake(at: next)
    }
}
