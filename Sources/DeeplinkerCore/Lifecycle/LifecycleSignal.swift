/// A signal of the `org.deeplinker.Lifecycle1` interface emitted by an app on its object path.
public enum LifecycleSignal: String, Sendable, Hashable, CaseIterable {
    case becameActive = "BecameActive"
    case willResignActive = "WillResignActive"
    case didEnterBackground = "DidEnterBackground"
    case willEnterForeground = "WillEnterForeground"

    /// The app state the signal announces (resigning and returning to the foreground are both `inactive`).
    public var state: AppState {
        switch self {
        case .becameActive: .active
        case .willResignActive, .willEnterForeground: .inactive
        case .didEnterBackground: .background
        }
    }
}
