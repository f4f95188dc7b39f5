import DBusKit
import DeeplinkerCore
import DeeplinkerProtocol
import TaskThreads

/// The scheme handler entries on the bus (SPEC §8): `<app-id>.deeplinker.desktop` is
/// `DBusActivatable`, so a launcher that speaks D-Bus (GIO) calls `org.freedesktop.Application` on
/// the bus name `<app-id>.deeplinker` at its object path instead of starting `deeplinker open`.
/// The daemon owns that name for every configured app with a scheme and answers:
/// - `Open(as uris, a{sv} platform_data)`: each URI as `Invoke(app, "url", uri, platform_data)`;
/// - `Activate(a{sv} platform_data)`: `Invoke(app, "launch", "", platform_data)` (an icon launch);
/// - `ActivateAction`: `Unsupported` (the handler entry has no actions).
/// These are a second method table (``handlerEntryMethods(appID:)``), served by the same
/// dispatcher with the same one exit; each handler calls the dispatcher again with the `Invoke`
/// entry of the main table, so the access column, the rate limit, the activation token
/// (`activation-token`, `desktop-startup-id`) and the reply after the commit are exactly `Invoke`'s.
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

    /// The object at the handler name's path: `org.freedesktop.Application`, its methods the
    /// entries of ``handlerEntryMethods(appID:)``, dispatched like the main table's.
    private func handlerObject(name: String, appID: String) -> DBusObject {
        let methods = Self.handlerEntryMethods(appID: appID).map { method in
            DBusMethod(method.name, in: method.inputs, documentation: method.documentation) { [self] call in
                onLoop { core in
                    // Open is Invoke of URLs: open to everyone, it need not wait for the caller.
                    core.withCaller(call.sender, callerIndependent: method.name == "Open") { core, caller in
                        core.dispatch(method, arguments: call.arguments, sender: call.sender, caller: caller) { result in
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
            DBusInterface(DeeplinkerBus.applicationInterface, methods: methods)
        ])
    }

    /// One call on a handler entry, in process as the bus makes it: through the entry's method of
    /// the second table and the one dispatcher (an unknown member is `UnknownMethod`).
    func handlerEntryCall(
        appID: String, member: String, arguments: [DBusValue], sender: String, caller: Caller, respond: @escaping Respond
    ) {
        guard let method = Self.handlerEntryMethods(appID: appID).first(where: { $0.name == member }) else {
            let entry = DeeplinkerBus.handlerName(forAppID: appID)
            return respond(.failure(DBusError(name: DBusError.unknownMethodName, message: "\(entry) has no method '\(member)'")))
        }
        dispatch(method, arguments: arguments, sender: sender, caller: caller, respond: respond)
    }

    /// The second method table: `org.freedesktop.Application` on `appID`'s handler entry. Open to
    /// everyone here; each `Invoke` it makes is checked (access, rate limit) as its own call.
    nonisolated static func handlerEntryMethods(appID: String) -> [DaemonMethod] {
        let app = DBusValue.string(appID)
        let entry = DeeplinkerBus.handlerName(forAppID: appID)
        return [
            DaemonMethod("Activate", In.EntryActivate.self, Out.None.self, access: .everyone,
                "An icon launch of the app (Invoke with source launch).") { a, c, core in
                core.invokeForEntry([[app, .string("launch"), .string(""), a.platformData]], c)
            },
            DaemonMethod("Open", In.EntryOpen.self, Out.None.self, access: .everyone,
                "Routes each URI (Invoke with source url).") { a, c, core in
                core.invokeForEntry(a.uris.map { [app, .string("url"), .string($0), a.platformData] }, c)
            },
            DaemonMethod("ActivateAction", In.EntryAction.self, Out.None.self, access: .everyone,
                "Unsupported: the handler entry has no actions.") { a, _, _ throws(DeeplinkerError) in
                throw .unsupported("ActivateAction '\(a.action)' on \(entry): the handler entry has no actions")
            },
        ]
    }

    /// Dispatches `Invoke` once per argument list, as the caller of `context`; answers once every
    /// one is answered: the first refusal, else success.
    func invokeForEntry(_ calls: [[DBusValue]], _ context: CallContext) -> Reply<Out.None> {
        let invoke = Daemon.methodsByName["Invoke"]!
        let promise = ReplyPromise<Out.None>()
        let answers = HandlerAnswers(count: calls.count) { result in
            promise.resolve(Reply(kind: .relayed(result.map { _ in Out.None() })))
        }
        for arguments in calls {
            dispatch(invoke, arguments: arguments, sender: context.sender, caller: context.caller) { answers.add($0) }
        }
        return .pending(promise)
    }
}

/// Collects the answers of an `Open` with several URIs and replies once, after the last.
private final class HandlerAnswers: Sendable {
    private let state: LockedValue<(left: Int, failure: DBusError?)>
    private let respond: Respond

    init(count: Int, respond: @escaping Respond) {
        state = LockedValue((count, nil))
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
