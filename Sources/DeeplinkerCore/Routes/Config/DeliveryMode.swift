/// How a pending route reaches the app once it is active (`delivery` in a route file, SPEC §3).
public enum DeliveryMode: String, Sendable, Hashable, CaseIterable {
    case activateAction = "activate-action"
    case signal
    case exec
    /// `org.freedesktop.Application.Open` with the URI of the `[open]` table (or the invocation's URL).
    case open
}
