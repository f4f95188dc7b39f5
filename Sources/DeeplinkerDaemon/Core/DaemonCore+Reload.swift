import DeeplinkerCore
import DeeplinkerRouteFiles

extension DaemonCore {
    /// Re-reads the route files. A broken file keeps that app's previous routes; its error is returned.
    func reload() throws(DeeplinkerError) {
        // The service manager hears of the reload around it (SPEC §9).
        vitals.notifier.notify(SystemdNotifier.reloading())
        defer {
            vitals.notifier.notify("READY=1")
            reportStatus()
        }
        let directories = routeDirectories
        let result = RouteDirectory.load(directories: directories)
        let (merged, errors) = RouteDirectory.merge(result, over: registry)
        install(merged)
        vitals.brokenRouteFiles = errors.map(\.description)
        refreshDesktopEntries()
        logger.info("loaded route files for \(merged.appIDs.count) apps from \(directories.joined(separator: ":"))")
        guard errors.isEmpty else {
            for error in errors { logger.error("\(error.description)") }
            throw .invalidConfig(errors.map(\.description).joined(separator: "; "))
        }
    }
}
