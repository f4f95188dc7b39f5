/// The lifecycle signals apps emit on their object path, interface `org.deeplinker.Lifecycle1`.
public enum LifecycleSignalName: String, Sendable, CaseIterable {
    case becameActive = "BecameActive"
    case willResignActive = "WillResignActive"
    case didEnterBackground = "DidEnterBackground"
    case willEnterForeground = "WillEnterForeground"
}
