import DBusKit

/// The values of the daemon's read-only properties (`DeeplinkerAPI.properties`).
extension Daemon {
    @Sendable func property(_ name: String) -> DBusValue {
        let vitals = core.vitals
        switch name {
        case "StartedAt": return .int64(vitals.startedAt)
        case "StateDirectory": return .string(vitals.stateDirectory)
        case "DatabaseSize": return .uint64(vitals.databaseSize)
        case "BrokenRouteFiles": return .strings(vitals.brokenRouteFiles)
        case "RouteDirectories": return .strings(vitals.routeDirectories)
        case "RouteFiles": return DaemonVitals.routeFilesValue(vitals.routeFiles)
        case "FocusReporter": return FocusReport.value(vitals.focusReport)
        default: return DeeplinkerAPI.placeholder(name)
        }
    }
}
