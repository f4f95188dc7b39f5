/// An order to hand a route to the app now; the daemon reports the result with
/// ``DeeplinkEngine/deliveryOutcome(_:invocationID:attempt:)``.
public struct DeliveryAttempt: Sendable, Hashable {
    /// The invocation, already in status `delivering` (its `delivering` record must be durable before sending).
    public var invocation: Invocation
    /// The unique bus name to call for `activate-action`; `nil` for `signal` and `exec` delivery.
    /// For ``startsApp``, the app's well-known name.
    public var destination: String?
    /// Whether the call may start the app (no NO_AUTO_START): an `open` delivery to an app that
    /// is not running and that the bus can start, whose `Open` both starts it and hands it the route
    /// (SPEC §6, `desktop`).
    public var startsApp = false
    /// Whether `platform_data` carries `deeplinker.redelivery = true`.
    public var redelivery: Bool
    /// The attempt number (1-based) to quote in the outcome; stale outcomes are ignored.
    public var attempt: Int
    /// How to deliver.
    public var mode: AppPolicy.DeliveryMode
    /// How long to wait before reporting ``DeliveryOutcome/timedOut``.
    public var timeout: Duration
    /// The parameters the route's target declares (sorted): an action of one basic type takes
    /// the value of a target that declares exactly one.
    public var declaredParameters: [String]

    public init(
        invocation: Invocation,
        destination: String?,
        redelivery: Bool,
        attempt: Int,
        mode: AppPolicy.DeliveryMode,
        timeout: Duration,
        declaredParameters: [String] = []
    ) {
        self.invocation = invocation
        self.destination = destination
        self.redelivery = redelivery
        self.attempt = attempt
        self.mode = mode
        self.timeout = timeout
        self.declaredParameters = declaredParameters
    }
}
