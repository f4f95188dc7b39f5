import DBusKit

/// A stand-in for the Best Recipes app: its own connection owning `com.bestrecipes.App`, exporting
/// `org.freedesktop.Application.ActivateAction` (answered at once) at the app's object path, and
/// announcing `org.deeplinker.Lifecycle1.BecameActive`.
final class StandInApp: Sendable {
    let connection: DBusConnection
    let probe = DeliveryProbe()
    let path: String

    init(address: String, appID: String = BenchRouteFile.appID) throws {
        connection = try DBusConnection(address: address)
        path = "/" + String(appID.map { $0 == "." ? "/" : $0 == "-" ? "_" : $0 })
        let probe = self.probe
        try connection.export(DBusObject(path: path, interfaces: [
            DBusInterface("org.freedesktop.Application", methods: [
                DBusMethod(
                    "ActivateAction",
                    in: [DBusArgument("action_name", "s"), DBusArgument("parameter", "av"), DBusArgument("platform_data", "a{sv}")]
                ) { call in
                    let data = call.arguments.count == 3 ? call.arguments[2].variantDictionaryValue : nil
                    probe.arrived(data?["deeplinker.url"]?.stringValue ?? "")
                    call.reply()
                }
            ])
        ]))
    }

    /// Takes the app's name and tells the daemon the app is active.
    func becomeActive(appID: String = BenchRouteFile.appID) async throws {
        let reply = try await connection.requestName(appID)
        guard reply == .primaryOwner || reply == .alreadyOwner else { throw DBusError.failed("could not own \(appID): \(reply)") }
        try connection.emitSignal(path: path, interface: "org.deeplinker.Lifecycle1", member: "BecameActive")
    }

    func close() {
        connection.close()
    }
}
