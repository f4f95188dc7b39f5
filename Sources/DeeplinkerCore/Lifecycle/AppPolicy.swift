/// The part of an app's route file that governs its pending deeplink and delivery.
///
/// The engine knows nothing about route files: the daemon builds one `AppPolicy` per configured app
/// (SPEC §5 keys `pending-ttl`, `dedupe-window`, `delivery-timeout`, `max-attempts`,
/// `lifecycle-senders`, `restore-last-route`, `delivery`, `raise`, `ready`) and hands it to ``DeeplinkEngine``.
public struct AppPolicy: Sendable, Hashable {
    /// How long a pending route may wait for `BecameActive`; `nil` means it never expires (`pending-ttl = "0"`).
    public var pendingTTL: Duration?
    /// An identical invocation inside this window returns the first one; zero disables de-duplication.
    public var dedupeWindow: Duration
    /// How long the daemon waits for an acknowledgement before reporting ``DeliveryOutcome/timedOut``.
    public var deliveryTimeout: Duration
    /// Failed delivery attempts after which the invocation becomes `failed` (values below 1 count as 1).
    public var maxAttempts: Int
    /// Who may report the app's lifecycle state.
    public var lifecycleSenders: LifecycleSenders
    /// Whether an invocation without a route yields the app's last delivered route (source `restore`).
    public var restoreLastRoute: Bool
    /// How routes reach the app.
    public var delivery: DeliveryMode
    /// Whether an invocation for a running app that is not active asks it to come to the front.
    public var raise: Bool
    /// What makes the app active: its own reports, owning its name, or the focus of its window.
    public var ready: Readiness
    /// Each target's declared parameter names, sorted: an action of one basic type takes the
    /// value of a target that declares exactly one (SPEC §3, Delivery).
    public var targetParameters: [String: [String]]

    public init(
        pendingTTL: Duration? = .seconds(600),
        dedupeWindow: Duration = .seconds(2),
        deliveryTimeout: Duration = .seconds(5),
        maxAttempts: Int = 3,
        lifecycleSenders: LifecycleSenders = .owner,
        restoreLastRoute: Bool = false,
        delivery: DeliveryMode = .activateAction,
        raise: Bool = true,
        ready: Readiness = .signal,
        targetParameters: [String: [String]] = [:]
    ) {
        self.pendingTTL = pendingTTL
        self.dedupeWindow = dedupeWindow
        self.deliveryTimeout = deliveryTimeout
        self.maxAttempts = maxAttempts
        self.lifecycleSenders = lifecycleSenders
        self.restoreLastRoute = restoreLastRoute
        self.delivery = delivery
        self.raise = raise
        self.ready = ready
        self.targetParameters = targetParameters
    }

    /// The SPEC §5 defaults: 10 min TTL, 2 s dedupe window, 5 s timeout, 3 attempts, owner-only, no restore, activate-action, raise, ready by signal.
    public static let `default` = AppPolicy()
}
