/// How the daemon starts an app that is not running (`launch` in a route file).
public enum LaunchMode: Sendable, Hashable {
    /// `StartServiceByName(app_id)` when the name is bus-activatable.
    case dbus
    /// Never start the app; routes wait until it runs.
    case none
    /// Spawn this argv (no shell), detached.
    case command([String])
}
