import DBusKit
import DeeplinkerProtocol

extension DeeplinkerApp {
    /// `org.freedesktop.Application` as GApplication exports it: `ActivateAction` delivers routes,
    /// `Activate` and `Open` go to the optional handlers.
    func applicationObject(handler: @escaping RouteHandler, activate: ActivateHandler?, open: OpenHandler?) -> DBusObject {
        let ledger = self.ledger
        let activateAction = DBusMethod(
            "ActivateAction", in: [.init("action_name", "s"), .init("parameter", "av"), .init("platform_data", "a{sv}")]
        ) { [weak self] call in
            guard let route = IncomingRoute(activateActionArguments: call.arguments) else {
                return call.fail(.invalidArgs("ActivateAction expects (s, av, a{sv})"))
            }
            Task {
                do {
                    let ran = try await ledger.run(id: route.invocationID) { try await handler(route) }
                    call.reply()
                    for acknowledged in self?.state.withLock({ $0.acknowledged }) ?? [] { acknowledged(route, !ran) }
                } catch let rejection as RouteRejection {
                    call.fail(rejection.dbusError)
                } catch {
                    call.fail(.failed("the app refused route \(route.target): \(error)"))
                }
            }
        }
        let activateMethod = DBusMethod("Activate", in: [.init("platform_data", "a{sv}")]) { call in
            let request = ActivationRequest(platformData: call.arguments.first?.variantDictionaryValue ?? [:])
            Task {
                await activate?(request)
                call.reply()
            }
        }
        let openMethod = DBusMethod(
            "Open", in: [.init("uris", "as"), .init("hint", "s"), .init("platform_data", "a{sv}")]
        ) { call in
            let uris = call.arguments.first?.stringArray ?? []
            let hint = call.arguments.count > 1 ? call.arguments[1].stringValue ?? "" : ""
            let platform = call.arguments.count > 2 ? call.arguments[2].variantDictionaryValue ?? [:] : [:]
            Task {
                await open?(uris, hint, platform)
                call.reply()
            }
        }
        let application = DBusInterface(
            DeeplinkerNames.applicationInterface, methods: [activateMethod, openMethod, activateAction])
        let lifecycle = DBusInterface(
            DeeplinkerNames.lifecycleInterface,
            signals: LifecycleSignalName.allCases.map { DBusSignal($0.rawValue) })
        return DBusObject(path: objectPath, interfaces: [application, lifecycle])
    }
}
