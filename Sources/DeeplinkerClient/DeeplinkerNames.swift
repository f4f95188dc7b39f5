import DeeplinkerProtocol
/// The contract's names for apps using the client library; they are `DeeplinkerProtocol`'s
/// (`DeeplinkerBus`), re-exported under the names this library has always had.
public enum DeeplinkerNames {
    /// The daemon's well-known bus name.
    public static let busName = DeeplinkerBus.name
    /// The daemon's object path.
    public static let objectPath = DeeplinkerBus.objectPath
    /// The daemon's interface.
    public static let interface = DeeplinkerBus.interface
    /// The interface apps emit their lifecycle signals on.
    public static let lifecycleInterface = DeeplinkerBus.lifecycleInterface
    /// The interface routes are delivered through (GApplication's).
    public static let applicationInterface = DeeplinkerBus.applicationInterface
    /// Prefix of every error the daemon answers with.
    public static let errorPrefix = DeeplinkerBus.errorPrefix

    /// The object path of an app: `/` + the id with `.` → `/` and `-` → `_` (`/com/bestrecipes/App`).
    public static func objectPath(forAppID appID: String) -> String {
        DeeplinkerBus.objectPath(forAppID: appID)
    }
}
