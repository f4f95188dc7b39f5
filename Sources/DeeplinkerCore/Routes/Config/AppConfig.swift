/// One parsed and validated route file (`<app-id>.toml`, SPEC §5), with its route matcher built.
public struct AppConfig: Sendable {
    public var appID: String
    /// The file the config came from (as given to the parser), for messages.
    public var file: String
    /// Display name; nil when the file has none.
    public var name: String?
    /// Custom URL schemes, lowercase.
    public var schemes: [String]
    /// The schemes as the file spells them (`deeplinkTutorial`): desktop handlers are registered
    /// under these too, because `xdg-open` looks a scheme's handler up without folding case.
    public var schemeSpellings: [String]
    public var domains: [DomainPattern]
    public var launch: LaunchMode
    /// `raise`: ask a running app that is not active to come to the front (SPEC §6, Raise).
    public var raise: Bool
    public var delivery: DeliveryMode
    /// argv for `delivery = "exec"`, with `{target}`, `{invocation-id}`, `{source}`, `{parameters-json}` placeholders.
    public var deliverCommand: [String]?
    /// `[open]`: the URI template of each target, for `delivery = "open"`.
    public var openTemplates: [String: OpenTemplate]
    /// How long a pending route stays deliverable; nil = never expires (`"0"`).
    public var pendingTTL: Duration?
    /// Identical invocations within this window are answered with the first one (`.zero` = off).
    public var dedupeWindow: Duration
    public var deliveryTimeout: Duration
    public var maxAttempts: Int
    public var lifecycleSenders: LifecycleSenders
    /// `ready`: what makes the app active (its own signals, owning its name, or window focus).
    public var ready: Readiness
    public var restoreLastRoute: Bool
    /// Target for URLs the app claims but no route matches; it has a `url` parameter.
    public var fallbackTarget: String?
    public var targets: [String: TargetSchema]
    /// Routes in file order.
    public var routes: [RouteRule]
    public var notifications: NotificationConfig
    public var shortcuts: [ShortcutConfig]
    /// The segment trie over `routes`.
    public var matcher: RouteMatcher

    /// A config with the documented defaults and no targets or routes.
    public init(appID: String, file: String = "") {
        self.appID = appID
        self.file = file
        name = nil
        schemes = []
        schemeSpellings = []
        domains = []
        launch = .auto
        raise = true
        delivery = .activateAction
        deliverCommand = nil
        openTemplates = [:]
        pendingTTL = .seconds(600)
        dedupeWindow = .seconds(2)
        deliveryTimeout = .seconds(5)
        maxAttempts = 3
        lifecycleSenders = .owner
        ready = .signal
        restoreLastRoute = false
        fallbackTarget = nil
        targets = [:]
        routes = []
        notifications = NotificationConfig()
        shortcuts = []
        matcher = RouteMatcher(routes: [])
    }

    /// The configured shortcut of this type, if any.
    public func shortcut(_ type: String) -> ShortcutConfig? {
        shortcuts.first { $0.type == type }
    }

    /// Whether the app claims this normalised https host.
    public func claimsHost(_ host: String) -> Bool {
        domains.contains { $0.matches(host) }
    }
}
