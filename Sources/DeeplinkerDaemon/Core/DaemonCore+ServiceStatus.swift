import DeeplinkerCore

extension DaemonCore {
    /// How many apps have a pending deeplink right now.
    var routesPending: Int {
        engine.pendingCount
    }

    /// Sends `STATUS=` (apps loaded, routes pending) to the service manager when it changed.
    func reportStatus() {
        guard vitals.notifier.isEnabled else { return }
        vitals.report(appsLoaded: registry.apps.count, routesPending: routesPending)
    }
}
