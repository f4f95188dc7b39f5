import DBusKit
import DeeplinkerCore
import DeeplinkerProtocol
import Synchronization

/// The scheme handler entries on the bus (SPEC §8): `<app-id>.deeplinker.desktop` is
/// `DBusActivatable`, so a launcher that speaks D-Bus (GIO) calls `org.freedesktop.Application` on
/// the bus name `<app-id>.deeplinker` at its object path instead of starting `deeplinker open`.
/// The daemon owns that name for every configured app with a scheme and answers:
/// - `Open(as uris, a{sv} platform_data)`: each URI as `Invoke(app, "url", uri, platform_data)`;
/// - `Activate(a{sv} platform_data)`: `Invoke(app, "launch", "", platform_data)` (an icon launch);
/// - `ActivateAction`: `Unsupported` (the handler entry has no actions).
/// Each goes through the one dispatcher with the `Invoke` entry of the method table, so the access
/// column, the rate limit, the activation token (`activation-token`, `desktop-startup-id`) and the
/// reply after the commit are exactly `Invoke`'s.
extension DaemonCore {
    /// Owns the handler names of exactly the configured apps with schemes, and serves their
    /// objects: called on start and whenever the registry changes. The name requests go out in
    /// order before any later reply, so a `Reload`'s caller sees the names once it hears back;
    /// `then` runs once the bus has answered every request (start-up waits for it).
    func serveHandlerEntries(then: (@Sendable () -> Void)? = nil) {
        let wanted = Dictionary(uniqueKeysWithValues: registry.appIDs.filter { !(config($0)?.schemes.isEmpty ?? true) }
            .map { (DeeplinkerBus.handlerName(forAppID: $0), $0) })
        for (name, _) in handlerEntries where wanted[name] == nil {
            handlerEntries[name] = nil
            connection.unexport(path: DeeplinkerBus.objectPath(forAppID: name))
            busDriverCall("ReleaseName", name)
        }
        let added = wanted.filter { handlerEntries[$0.key] == nil }
        let answers = HandlerAnswers(count: added.count) { _ in then?() }
        for (name, appID) in added {
            handlerEntries[name] = appID
            do {
                try connection.export(handlerObject(name: name, appID: appID))
            } catch {
                logger.warning("cannot serve the handler entry \(name): \(error.message)")
                answers.add(.success([]))
                continue
            }
            // DO_NOT_QUEUE: a name someone else holds stays theirs (logged).
            busDriverCall("RequestName", name, flags: 4) { answers.add(.success([])) }
        }
    }

    /// Stops answering on the handler entries' objects (the daemon is stopping).
    func unexportHandlerEntries() {
        for name in handlerEntries.keys { connection.unexport(path: DeeplinkerBus.objectPath(forAppID: name)) }
    }

    private func busDriverCall(_ member: String, _ name: String, flags: UInt32? = nil, done: (@Sendable () -> Void)? = nil) {
        let arguments: [DBusValue] = [.string(name)] + (flags.map { [.uint32($0)] } ?? [])
        guard let message = try? DBusMessage.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: member, arguments: arguments)
        else { done?(); return }
        let logger = self.logger
        connection.startCall(message, timeout: nil) { result in
            defer { done?() }
            switch result {
            case .success(let reply):
                // RequestName: 1 = primary owner, 4 = already the owner; 3 = someone else holds it.
                guard member == "RequestName" else { return }
                let code = (try? reply.arguments())?.first?.uint32Value ?? 0
                if code == 1 || code == 4 {
                    logger.debug("serving the handler entry \(name)")
                } else {
                    logger.warning("the handler entry's bus name \(name) is owned by another connection; launchers that call it do not reach this daemon")
                }
            case .failure(let error):
                logger.warning("\(member) \(name): \(error.name): \(error.message)")
            }
        }
    }

    /// The object at the handler name's path: `org.freedesktop.Application`, answered through `Invoke`.
    private func handlerObject(name: String, appID: String) -> DBusObject {
        let data = DBusArgument("platform_data", "a{sv}")
        func method(_ member: String, _ inputs: [DBusArgument], _ documentation: String) -> DBusMethod {
            DBusMethod(member, in: inputs, documentation: documentation) { [self] call in
                onLoop { core in
                    // Open is Invoke of URLs: open to everyone, it need not wait for the caller.
                    core.withCaller(call.sender, callerIndependent: member == "Open") { core, caller in
                        core.handlerEntryCall(appID: appID, member: member, arguments: call.arguments, sender: call.sender, caller: caller) { result in
                            switch result {
                            case .success: call.reply()
                            case .failure(let error): call.fail(error)
                            }
                        }
                    }
                }
            }
        }
        return DBusObject(path: DeeplinkerBus.objectPath(forAppID: name), interfaces: [
            DBusInterface(DeeplinkerBus.applicationInterface, methods: [
                method("Activate", [data], "An icon launch of the app (Invoke with source launch)."),
                method("Open", [DBusArgument("uris", "as"), data], "Routes each URI (Invoke with source url)."),
                method("ActivateAction", [DBusArgument("action_name", "s"), DBusArgument("parameter", "av"), data],
                       "Unsupported: the handler entry has no actions."),
            ])
        ])
    }

    /// One call on a handler entry, as `Invoke` calls through the dispatcher; answers once every
    /// invocation it made is answered: the first refusal, else success.
    func handlerEntryCall(
        appID: String, member: String, arguments: [DBusValue], sender: String, caller: Caller, respond: @escaping Respond
    ) {
        let invoke = Daemon.methodsByName["Invoke"]!
        let app = DBusValue.string(appID)
        let entry = DeeplinkerBus.handlerName(forAppID: appID)
        let signature = arguments.map(\.signature).joined()
        guard let expected = Self.handlerEntrySignatures[member] else {
            return respond(.failure(DBusError(name: DBusError.unknownMethodName, message: "\(entry) has no method '\(member)'")))
        }
        guard signature == expected else {
            return respond(.failure(.invalidArgs("\(member) on \(entry) takes arguments '\(expected)', not '\(signature)'")))
        }
        switch member {
        case "Open":
            let uris = arguments[0].stringArray ?? []
            let answers = HandlerAnswers(count: uris.count, respond: respond)
            for uri in uris {
                dispatch(invoke, arguments: [app, .string("url"), .string(uri), arguments[1]], sender: sender, caller: caller) { answers.add($0) }
            }
        case "Activate":
            dispatch(invoke, arguments: [app, .string("launch"), .string(""), arguments[0]], sender: sender, caller: caller) { respond($0.map { _ in [] }) }
        default:
            let action = arguments[0].stringValue ?? ""
            respond(.failure(DeeplinkerError.unsupported("ActivateAction '\(action)' on \(entry): the handler entry has no actions").dbusError))
        }
    }

    /// The methods of `org.freedesktop.Application` a handler entry answers, with their signatures.
    nonisolated static let handlerEntrySignatures = ["Open": "asa{sv}", "Activate": "a{sv}", "ActivateAction": "sava{sv}"]
}

/// Collects the answers of an `Open` with several URIs and replies once, after the last.
private final class HandlerAnswers: Sendable {
    private let state: Mutex<(left: Int, failure: DBusError?)>
    private let respond: Respond

    init(count: Int, respond: @escaping Respond) {
        state = Mutex((count, nil))
        self.respond = respond
        if count == 0 { respond(.success([])) }
    }

    func add(_ result: Result<[DBusValue], DBusError>) {
        let done = state.withLock { state -> DBusError?? in
            if case .failure(let error) = result, state.failure == nil { state.failure = error }
            state.left -= 1
            return state.left == 0 ? .some(state.failure) : nil
        }
        guard let failure = done else { return }
        respond(failure.map { .failure($0) } ?? .success([]))
    }
}
