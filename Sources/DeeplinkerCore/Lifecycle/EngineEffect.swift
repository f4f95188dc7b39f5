/// Something the daemon must do after an engine event, in the order given. The daemon commits the
/// persistent ones of one event in one transaction; the others run once that is *committed*
/// (written, not yet synced: SPEC §6's "recorded"); a method's reply waits until it is *durable*.
public enum EngineEffect: Sendable, Hashable {
    /// The invocation was created or changed status: persist it (upsert by id, the higher
    /// `revision` wins), then emit `InvocationChanged(app_id, id, status, detail)`.
    case statusChanged(Invocation)
    /// Hand a route to the app, once the preceding `delivering` status is committed (not waiting
    /// for its sync). After `SetAppState`, also after that method's reply (SPEC §3): the daemon's
    /// dispatcher holds it until the reply is sent.
    case deliver(DeliveryAttempt)
    /// Start the app per its `launch` setting (it was not running when an invocation arrived).
    case launch(Summons)
    /// Ask the running, not active app to come to the front (`org.freedesktop.Application.Activate`
    /// on `owner`); the route stays pending until its `BecameActive`.
    case raise(Summons)
    /// The app's state or owner changed: persist it.
    case appStateChanged(AppStateRecord)
}
