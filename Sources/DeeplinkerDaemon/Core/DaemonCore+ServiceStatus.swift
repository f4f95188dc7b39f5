import DeeplinkerCore

extension DaemonCore {
    /// How many apps have a pending deeplink right now.
    var routesPending: Int {
        engine.knownApps.reduce(0) { $0 + (engine.pending(appID: $1) == nil ? 0 : 1) }
    }

    /// Sends `STATUS=` (apps loaded, routes pending) to the service manager when it changed.
    func reportStatus() {
        guard vitals.notifier.isEnabled else { return }
        vitals.report(appsLoaded: registry.appIDs.count, routesPending: routesPending)
    }
}
