/// The `[notifications]` table: how a clicked notification's payload becomes a route.
public struct NotificationConfig: Sendable, Hashable {
    /// Payload path naming the target (no default).
    public var targetKey: String?
    /// Payload path holding a URL routed like a link (no default).
    public var urlKey: String?
    /// Payload path whose value de-duplicates notifications (no default).
    public var idKey: String?
    /// Checked first, in file order.
    public var rules: [NotificationRule]

    public init(targetKey: String? = nil, urlKey: String? = nil, idKey: String? = nil, rules: [NotificationRule] = []) {
        self.targetKey = targetKey
        self.urlKey = urlKey
        self.idKey = idKey
        self.rules = rules
    }
}
