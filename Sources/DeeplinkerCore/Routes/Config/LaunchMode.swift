/// How the daemon starts an app that is not running (`launch` in a route file, SPEC §5 and §6).
public enum LaunchMode: Sendable, Hashable {
    /// The default: D-Bus activation when the name is activatable, else the app's desktop entry,
    /// else nothing (logged once; the route waits until the app runs).
    case auto
    /// `StartServiceByName(app_id)` when the name is bus-activatable.
    case dbus
    /// The app's installed desktop entry (never one Deeplinker wrote).
    case desktop
    /// Never start the app; routes wait until it runs.
    case none
    /// Spawn this argv (no shell), in its own scope or session.
    case command([String])
}
