extension AppPolicy {
    /// `delivery`: how the daemon hands a route to the app (SPEC §3 "Delivery").
    public enum DeliveryMode: Sendable, Hashable {
        /// `org.freedesktop.Application.ActivateAction` on the owner's unique name; needs an owner.
        case activateAction
        /// The daemon's `Deliver` signal; acknowledged on emission, needs no owner.
        case signal
        /// Runs `deliver-command` (argv, no shell); exit 0 acknowledges; needs no owner.
        case exec(command: [String])

        /// Whether a delivery must be addressed to a bus connection owning the app's name.
        public var needsOwner: Bool {
            if case .activateAction = self { true } else { false }
        }
    }
}
