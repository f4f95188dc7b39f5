/// One recorded invocation of an app: what came in, the route it produced and where its delivery stands.
///
/// It carries everything needed to persist it, to report it (`GetPending`, `GetHistory`,
/// `InvocationChanged`) and to answer a de-duplicated repeat with exactly the first reply.
public struct Invocation: Sendable, Hashable, Codable {
    /// Unique id (a lowercase UUID), also the idempotency key sent as `deeplinker.invocation-id`.
    public var id: String
    public var appID: String
    /// The source of the invocation (for a routed one, the same as `route.source`).
    public var source: Source
    /// The route; `nil` for a `rejected` invocation.
    public var route: Route?
    public var status: InvocationStatus
    /// Why the status is what it is (e.g. `org.deeplinker.Error.NoRoute`); never parameter values.
    public var detail: String
    /// Microseconds since the epoch when the daemon received it; `pending-ttl` counts from here.
    public var receivedAt: Int64
    /// Microseconds since the epoch of the last status change.
    public var updatedAt: Int64
    /// Delivery attempts started so far (attempts that found no owner are not counted).
    public var attempts: Int
    /// Set once an earlier attempt's outcome is unknown (time-out, daemon restart); the next
    /// deliveries carry `deeplinker.redelivery = true`.
    public var redelivery: Bool
    /// Platform data passed on to the app (`activation-token`, `desktop-startup-id`, `deeplinker.action`, ...).
    public var platformData: [String: String]
    /// The de-duplication key computed by the daemon (`nil`: never de-duplicated).
    public var dedupeKey: String?
    /// For `Launch`: the `kind` returned with the reply, so a repeat gets the same answer.
    public var launchKind: String?
    /// Incremented on every change so a store can refuse to overwrite a newer version with an older one.
    public var revision: Int

    public init(
        id: String,
        appID: String,
        source: Source,
        route: Route?,
        status: InvocationStatus,
        detail: String = "",
        receivedAt: Int64,
        updatedAt: Int64? = nil,
        attempts: Int = 0,
        redelivery: Bool = false,
        platformData: [String: String] = [:],
        dedupeKey: String? = nil,
        launchKind: String? = nil,
        revision: Int = 0
    ) {
        self.id = id
        self.appID = appID
        self.source = source
        self.route = route
        self.status = status
        self.detail = detail
        self.receivedAt = receivedAt
        self.updatedAt = updatedAt ?? receivedAt
        self.attempts = attempts
        self.redelivery = redelivery
        self.platformData = platformData
        self.dedupeKey = dedupeKey
        self.launchKind = launchKind
        self.revision = revision
    }
}
