import DBusKit
import DeeplinkerProtocol

/// A stand-in for the Best Recipes app: its own connection owning `com.bestrecipes.App`, exporting
/// `org.freedesktop.Application.ActivateAction` (answered at once) at the app's object path, and
/// announcing `org.deeplinker.Lifecycle1.BecameActive`.
final class StandInApp: Sendable {
    let connection: DBusConnection
    let probe = DeliveryProbe()
    let path: String

    init(address: String, appID: String = BenchRouteFile.appID) throws {
        connection = try DBusConnection(address: address)
        path = DeeplinkerBus.objectPath(forAppID: appID)
        let probe = self.probe
        try connection.export(DBusObject(path: path, interfaces: [
            DBusInterface(DeeplinkerBus.applicationInterface, methods: [
                DBusMethod(
                    "ActivateAction",
                    in: [DBusArgument("action_name", "s"), DBusArgument("parameter", "av"), DBusArgument("platform_data", "a{sv}")]
                ) { call in
                    let data = call.arguments.count == 3 ? call.arguments[2].variantDictionaryValue : nil
                    probe.arrived(data?[PlatformDataKey.url]?.stringValue ?? "")
                    call.reply()
                }
            ])
        ]))
    }

    /// Takes the app's name and tells the daemon the app is active.
    func becomeActive(appID: String = BenchRouteFile.appID) async throws {
        let reply = try await connection.requestName(appID)
        guard reply == .primaryOwner || reply == .alreadyOwner else { throw DBusError.failed("could not own \(appID): \(reply)") }
        try connection.emitSignal(path: path, interface: DeeplinkerBus.lifecycleInterface, member: LifecycleSignalName.becameActive.rawValue)
    }

    func close() {
        connection.close()
    }
}
