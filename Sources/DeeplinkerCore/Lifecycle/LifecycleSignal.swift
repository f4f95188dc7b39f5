import DeeplinkerProtocol

/// A signal of the `org.deeplinker.Lifecycle1` interface emitted by an app on its object path (its
/// names are the contract's, in `DeeplinkerProtocol`).
public typealias LifecycleSignal = LifecycleSignalName

extension LifecycleSignalName {
    /// The app state the signal announces (resigning and returning to the foreground are both `inactive`).
    public var state: AppState {
        switch self {
        case .becameActive: .active
        case .willResignActive, .willEnterForeground: .inactive
        case .didEnterBackground: .background
        }
    }
}
