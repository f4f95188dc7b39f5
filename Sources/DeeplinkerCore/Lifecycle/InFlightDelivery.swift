/// The delivery attempt an app currently has outstanding (at most one per app).
struct InFlightDelivery: Sendable, Hashable {
    /// The invocation being delivered, in status `delivering`.
    var invocation: Invocation
    /// The attempt number the outcome must quote.
    var attempt: Int
    /// `DiscardPending` arrived while in flight: a failure makes it `discarded` instead of pending again.
    var discardRequested = false
}
