/// Something the daemon must do after an engine event, in the order given.
public enum EngineEffect: Sendable, Hashable {
    /// The invocation was created or changed status: persist it (upsert by id, the higher
    /// `revision` wins), then emit `InvocationChanged(app_id, id, status, detail)`.
    case statusChanged(Invocation)
    /// Hand a route to the app, after the preceding `delivering` status is durable and after any
    /// method reply has been sent.
    case deliver(DeliveryAttempt)
    /// Start the app per its `launch` setting (it was not running when an invocation arrived).
    case launch(Summons)
    /// Ask the running, not active app to come to the front (`org.freedesktop.Application.Activate`
    /// on `owner`); the route stays pending until its `BecameActive`.
    case raise(Summons)
    /// The app's state or owner changed: persist it.
    case appStateChanged(AppStateRecord)
}
