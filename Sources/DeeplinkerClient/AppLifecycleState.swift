/// The lifecycle state an app last announced, and the `org.deeplinker.Lifecycle1` signal and
/// `SetAppState` value that announce it.
public enum AppLifecycleState: String, Sendable, Hashable, Codable {
    case inactive
    case active
    case background

    /// The value `SetAppState` takes for this state.
    public var setAppStateValue: String { rawValue }
}
