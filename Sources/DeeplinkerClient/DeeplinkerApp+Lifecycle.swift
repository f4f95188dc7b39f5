import DBusKit
import DeeplinkerProtocol

extension DeeplinkerApp {
    /// The app is in the foreground and ready: the daemon delivers the pending deeplink now.
    public func becameActive() { announce(.active, signal: .becameActive) }

    /// The app is about to stop being active (a dialog, a lost focus).
    public func willResignActive() { announce(.inactive, signal: .willResignActive) }

    /// The app went to the background.
    public func didEnterBackground() { announce(.background, signal: .didEnterBackground) }

    /// The app is coming back to the foreground but is not active yet.
    public func willEnterForeground() { announce(.inactive, signal: .willEnterForeground) }

    /// The state last announced, nil before the first announcement.
    public var lifecycleState: AppLifecycleState? { state.withLock { $0.lifecycle } }

    /// Runs `handler` (on the bus thread) with the daemon's new unique name each time the daemon
    /// appears on the bus after `start`, after the app has re-announced its state.
    public func onDaemonAppeared(_ handler: @escaping @Sendable (String) -> Void) {
        state.withLock { $0.daemonAppeared.append(handler) }
    }

    private func announce(_ lifecycle: AppLifecycleState, signal: LifecycleSignalName) {
        state.withLock { $0.lifecycle = lifecycle }
        // The path was validated in init, so building the signal cannot fail.
        try? connection.emitSignal(path: objectPath, interface: DeeplinkerNames.lifecycleInterface, member: signal.rawValue)
    }

    /// The daemon's name changed hands: a new daemon knows nothing of a state it did not see, so
    /// tell it with `SetAppState` (a method call, answered only once the daemon serves), falling
    /// back to the signal if the call fails.
    func daemonOwnerChanged(to newOwner: String) {
        let (changed, lifecycle, handlers) = state.withLock { s in
            let changed = s.daemonOwner != newOwner
            s.daemonOwner = newOwner
            return (changed, s.lifecycle, s.daemonAppeared)
        }
        guard changed, !newOwner.isEmpty else { return }
        Task { [connection, appID, objectPath] in
            if let lifecycle {
                do {
                    _ = try await connection.call(
                        destination: newOwner, path: DeeplinkerNames.objectPath, interface: DeeplinkerNames.interface,
                        member: "SetAppState", arguments: [.string(appID), .string(lifecycle.setAppStateValue)])
                } catch {
                    let signal: LifecycleSignalName = switch lifecycle {
                    case .active: .becameActive
                    case .inactive: .willResignActive
                    case .background: .didEnterBackground
                    }
                    try? connection.emitSignal(path: objectPath, interface: DeeplinkerNames.lifecycleInterface, member: signal.rawValue)
                }
            }
            for handler in handlers { handler(newOwner) }
        }
    }
}
