import DBusKit
@_exported import enum DeeplinkerProtocol.DeeplinkerErrorName

extension DBusError {
    /// The short Deeplinker error name (`NoRoute` for `org.deeplinker.Error.NoRoute`), else nil.
    public var deeplinkerErrorName: String? {
        name.hasPrefix(DeeplinkerNames.errorPrefix) ? String(name.dropFirst(DeeplinkerNames.errorPrefix.count)) : nil
    }

    /// The Deeplinker error (SPEC §4) this is, else nil.
    public var deeplinkerError: DeeplinkerErrorName? {
        deeplinkerErrorName.flatMap(DeeplinkerErrorName.init(rawValue:))
    }

    /// Whether the error means that nobody serves `org.deeplinker.Deeplinker1` (and the bus could
    /// not start it), or that there is no bus to reach it on.
    public var isDaemonNotRunning: Bool {
        name == DBusError.serviceUnknownName || name == DBusError.nameHasNoOwnerName
            || name == "org.freedesktop.DBus.Error.FileNotFound" || name == "org.freedesktop.DBus.Error.NoServer"
            || name == "org.freedesktop.DBus.Error.Disconnected" || name == "org.freedesktop.DBus.Error.BadAddress"
            || name == "org.freedesktop.DBus.Error.NotSupported" || isSpawnFailure
    }

    /// Whether bus activation tried to start the daemon and failed
    /// (`org.freedesktop.DBus.Error.Spawn.ChildExited`, `….Spawn.ExecFailed`, …, or a start that
    /// never took the name: `TimedOut` "Failed to activate service …").
    public var isSpawnFailure: Bool {
        name.hasPrefix("org.freedesktop.DBus.Error.Spawn.")
            || (name == "org.freedesktop.DBus.Error.TimedOut" && message.hasPrefix("Failed to activate service"))
    }
}
