import DBusKit
import DeeplinkerCore
import TaskThreads

/// Where a dispatched call's answer goes: the bus (a `DBusMethodCall`) or an in-process caller.
typealias Respond = @Sendable (Result<[DBusValue], DBusError>) -> Void
/// Encodes a successful answer ahead and returns what sends it (a bus call's reply, encoded while
/// the disk syncs: ``DBusMethodCall/preparedReply(_:)``).
typealias PrepareReply = @Sendable ([DBusValue]) -> @Sendable () -> Void

extension Daemon {
    /// The bus-side handler of one method-table entry: finds the caller (cached per unique name),
    /// then dispatches on the core in bus order.
    func handler(for method: DaemonMethod) -> @Sendable (DBusMethodCall) -> Void {
        let core = self.core
        return { call in
            let respond: Respond = { result in
                switch result {
                case .success(let values): call.reply(values)
                case .failure(let error): call.fail(error)
                }
            }
            core.onLoop { core in
                core.withCaller(call.sender, callerIndependent: method.access.isOpenToEveryone(arguments: call.arguments)) { core, caller in
                    core.dispatch(
                        method, arguments: call.arguments, sender: call.sender, caller: caller, respond: respond,
                        prepare: call.preparedReply)
                }
            }
        }
    }
}

extension DaemonCore {
    /// The one dispatcher: every call of the interface, from the bus or in process, goes through
    /// here. In order: the signature, the rate limit (invocations of sandboxed callers), the access
    /// column, decoding (the 64 KiB limit), the handler; then it sends the reply, mapping every
    /// error to its D-Bus name (`DeeplinkerError+DBus.swift`).
    func dispatch(
        _ method: DaemonMethod, arguments: [DBusValue], sender: String, caller: Caller, respond: @escaping Respond,
        prepare: PrepareReply? = nil
    ) {
        let signature = arguments.map(\.signature).joined()
        let expected = method.inputs.map(\.signature).joined()
        guard signature == expected else {
            return respond(.failure(.invalidArgs("\(method.name) takes arguments '\(expected)', not '\(signature)'")))
        }
        let reply: Reply<[DBusValue]>
        do throws(DeeplinkerError) {
            if method.refusalSource != nil, !caller.isHost, !callers.admit(sender, caller, at: engine.now) {
                throw .rateLimited(
                    "\(method.name): \(caller) made more than \(RateWindow.limit) invocations within one second on \(sender)")
            }
            let scope = try method.access.check(method.name, caller: caller, arguments: arguments)
            reply = method.run(arguments, CallContext(sender: sender, caller: caller, scope: scope), self)
        } catch {
            reply = .now(.failure(error))
        }
        Self.send(reply, respond, prepare: prepare)
    }

    /// Sends a handler's reply, once: at once (then its follow-up step), after its commit (a failed
    /// commit answers `StorageFailed`: nothing was promised durable), or as the handler's later reply.
    nonisolated static func send(_ reply: Reply<[DBusValue]>, _ respond: @escaping Respond, prepare: PrepareReply? = nil) {
        switch reply.kind {
        case .now(let result, let then):
            respond(result.mapError(\.dbusError))
            then?()
        case .afterCommit(let result, let commit):
            // A bus reply is encoded once the batch is written, after its effects, while the disk
            // syncs: what is left after the sync is the write.
            let prepared = LockedValue<(@Sendable () -> Void)?>(nil)
            if let prepare, case .success(let values) = result {
                commit.whenWritten { written in
                    if case .success = written { prepared.withLock { $0 = prepare(values) } }
                }
            }
            // Resolved on the bus thread when the sync thread reports the batch durable, after the
            // batch's effects ran there: its `InvocationChanged` signals go out first.
            commit.whenResolved { outcome in
                switch outcome {
                case .success:
                    if let send = prepared.withLock({ $0 }) { return send() }
                    respond(result.mapError(\.dbusError))
                case .failure(let error):
                    respond(.failure(DeeplinkerError.storageFailed("\(error)").dbusError))
                }
            }
        case .pending(let promise):
            promise.whenResolved { send($0, respond) }
        case .relayed(let result):
            respond(result)
        }
    }
}
