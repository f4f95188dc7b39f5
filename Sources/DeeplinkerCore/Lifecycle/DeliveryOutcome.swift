/// What the daemon learned about one delivery attempt, reported back with the attempt number.
public enum DeliveryOutcome: Sendable, Hashable {
    /// The app acknowledged (method reply, signal emitted, exit status 0): the route is consumed.
    case acknowledged
    /// The app answered with an error; the associated text (a D-Bus error name or `exit status N`)
    /// becomes the invocation's detail, so it must not contain parameter values.
    case refused(String)
    /// No acknowledgement within `delivery-timeout`; whether the app handled it is unknown.
    case timedOut
    /// There was no connection to deliver to (the owner vanished); not counted as an attempt.
    case noOwner
    /// The route cannot be handed over in the app's terms (an action it lacks, a type the route
    /// cannot fill, no URI to open): the invocation is `failed` at once with this detail, which
    /// names the action and its type and never a parameter's value.
    case undeliverable(String)
}
