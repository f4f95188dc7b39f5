extension AppPolicy {
    /// `delivery`: how the daemon hands a route to the app (SPEC §3 "Delivery").
    public enum DeliveryMode: Sendable, Hashable {
        /// `org.freedesktop.Application.ActivateAction` on the owner's unique name; needs an owner.
        case activateAction
        /// The daemon's `Deliver` signal; acknowledged on emission, needs no owner.
        case signal
        /// Runs `deliver-command` (argv, no shell); exit 0 acknowledges; needs no owner.
        case exec(command: [String])
        /// `org.freedesktop.Application.Open` on the owner's unique name with one URI: the
        /// target's template (by target name), else the invocation's own URL; needs an owner.
        case open(templates: [String: OpenTemplate])

        /// Whether a delivery must be addressed to a bus connection owning the app's name.
        public var needsOwner: Bool {
            switch self {
            case .activateAction, .open: true
            case .signal, .exec: false
            }
        }

        /// Whether routes go out by `Open`: such an app is not raised before a route (`Open`
        /// presents it) and is launched without the URL in its `Exec` (SPEC §3, §6).
        public var opensURIs: Bool {
            if case .open = self { true } else { false }
        }
    }
}
