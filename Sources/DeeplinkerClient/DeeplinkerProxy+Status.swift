import DeeplinkerProtocol
import DBusKit

extension DeeplinkerProxy {
    /// All of the daemon's properties in one call (starts the daemon if it is bus-activatable).
    public func properties() async throws(DBusError) -> DaemonProperties {
        let reply = try await connection.call(
            destination: destination, path: DeeplinkerNames.objectPath, interface: "org.freedesktop.DBus.Properties",
            member: "GetAll", arguments: [.string(DeeplinkerNames.interface)], timeout: timeout)
        let values = reply.first?.variantDictionaryValue ?? [:]
        var size: UInt64 = 0
        if case .uint64(let bytes)? = values["DatabaseSize"] { size = bytes }
        let focus = values["FocusReporter"]?.variantDictionaryValue ?? [:]
        let reporter = focus["sender"]?.stringValue.map {
            FocusReporterInfo(
                sender: $0, command: focus["command"]?.stringValue ?? "", appID: focus["app-id"]?.stringValue ?? "",
                reportedAtMicroseconds: focus["reported-at"]?.int64Value ?? 0)
        }
        let routeFiles = values["RouteFiles"]?.arrayElements.map { rows in
            rows.compactMap { row -> ServedRouteFile? in
                guard let f = row.structureFields, f.count == 4, case .uint64(let digest) = f[2] else { return nil }
                return ServedRouteFile(path: f[0].stringValue ?? "", appID: f[1].stringValue ?? "", digest: digest, error: f[3].stringValue ?? "")
            }
        }
        return DaemonProperties(
            version: values["Version"]?.stringValue ?? "",
            startedAtMicroseconds: values["StartedAt"]?.int64Value ?? 0,
            stateDirectory: values["StateDirectory"]?.stringValue ?? "",
            databaseSize: size,
            brokenRouteFiles: values["BrokenRouteFiles"]?.stringArray ?? [],
            routeDirectories: values["RouteDirectories"]?.stringArray ?? [], focusReporter: reporter, routeFiles: routeFiles)
    }

    /// The process id of the connection `uniqueName` (the bus asks the kernel).
    public func processID(of uniqueName: String) async throws(DBusError) -> UInt32? {
        let reply = try await connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetConnectionUnixProcessID", arguments: [.string(uniqueName)], timeout: timeout)
        return reply.first?.uint32Value
    }
}
