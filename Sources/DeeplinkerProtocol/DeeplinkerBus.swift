/// The fixed names of the Deeplinker D-Bus contract (SPEC §1 and §3), shared by the daemon, the
/// client library, the CLI and the benchmarks.
public enum DeeplinkerBus {
    /// The daemon's well-known bus name.
    public static let name = "org.deeplinker.Deeplinker1"
    /// The daemon's object path.
    public static let objectPath = "/org/deeplinker/Deeplinker1"
    /// The daemon's interface.
    public static let interface = "org.deeplinker.Deeplinker1"
    /// The interface apps emit their lifecycle signals on.
    public static let lifecycleInterface = "org.deeplinker.Lifecycle1"
    /// GApplication's interface: routes are delivered through `ActivateAction`, raises are `Activate`.
    public static let applicationInterface = "org.freedesktop.Application"
    /// GLib's action-group interface at the same path: `DescribeAll` lists each action's parameter
    /// type, which `activate-action` delivery follows.
    public static let actionsInterface = "org.gtk.Actions"
    /// Prefix of every error the daemon answers with.
    public static let errorPrefix = "org.deeplinker.Error."

    /// The full D-Bus error name of a Deeplinker error (`NoRoute` → `org.deeplinker.Error.NoRoute`).
    public static func errorName(_ name: String) -> String {
        errorPrefix + name
    }

    /// The bus name of an app's scheme handler entry `<app-id>.deeplinker.desktop` (SPEC §8): the
    /// entry is D-Bus-activatable, so launchers call `org.freedesktop.Application` on this name,
    /// which the daemon owns for every configured app with a scheme.
    public static func handlerName(forAppID appID: String) -> String {
        appID + handlerNameSuffix
    }

    /// What ends every handler entry's bus name: names the daemon owns, not an app.
    public static let handlerNameSuffix = ".deeplinker"

    /// The object path of an app: `/` + the id with `.` → `/` and `-` → `_` (`/com/bestrecipes/App`).
    public static func objectPath(forAppID appID: String) -> String {
        "/" + String(appID.map { $0 == "." ? "/" : $0 == "-" ? "_" : $0 })
    }
}
