/// One `[[notifications.rules]]` entry: when a payload path exists (and equals a value), go to `target`.
public struct NotificationRule: Sendable, Hashable {
    /// Dotted payload path that must exist (and not be null).
    public var when: String
    /// If set, the scalar at `when`, rendered as text, must equal this.
    public var equals: String?
    public var target: String
    /// Parameter name → dotted payload path.
    public var paramsFrom: [String: String]
    /// Fixed parameters (already canonicalised).
    public var params: [String: String]

    public init(when: String, equals: String? = nil, target: String, paramsFrom: [String: String] = [:], params: [String: String] = [:]) {
        self.when = when
        self.equals = equals
        self.target = target
        self.paramsFrom = paramsFrom
        self.params = params
    }
}
