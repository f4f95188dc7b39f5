import DBusKit
import DeeplinkerCore
import DeeplinkerProtocol

extension In {
    struct InvocationID: MethodInput {
        static let arguments = [DBusArgument("invocation_id", "s")]
        let invocationID: String
        init(_ r: inout ArgumentReader) throws(DeeplinkerError) { invocationID = try r.string("invocation_id") }
    }
}

extension Out {
    /// `GetInvocation`: one invocation as `a{sv}` (keys in `InvocationField`).
    struct InvocationDetails: MethodOutput {
        static let arguments = [DBusArgument("invocation", "a{sv}")]
        let invocation: DeeplinkerCore.Invocation
        var values: [DBusValue] {
            var fields: [String: DBusValue] = [
                InvocationField.invocationID: .string(invocation.id),
                InvocationField.appID: .string(invocation.appID),
                InvocationField.source: .string((invocation.route?.source ?? invocation.source).rawValue),
                InvocationField.target: .string(invocation.route?.target ?? ""),
                InvocationField.parameters: .stringDictionary(invocation.route?.parameters ?? [:]),
                InvocationField.status: .string(invocation.status.rawValue),
                InvocationField.receivedAt: .int64(invocation.receivedAt),
                InvocationField.attempts: .uint32(UInt32(clamping: invocation.attempts)),
                InvocationField.detail: .string(invocation.detail),
            ]
            if let url = invocation.platformData[PlatformDataKey.url] { fields[InvocationField.url] = .string(url) }
            return [.variantDictionary(fields)]
        }
    }
}

extension Daemon {
    /// `GetInvocation`: one retained invocation with its `detail`; a sandboxed app sees only its own.
    static func getInvocation(_ a: In.InvocationID, _ c: CallContext, _ core: isolated DaemonCore) throws(DeeplinkerError)
        -> Reply<Out.InvocationDetails>
    {
        let (store, promise, id) = (core.store, ReplyPromise<Out.InvocationDetails>(), a.invocationID)
        core.track { _ in
            let found: DeeplinkerCore.Invocation?
            do {
                found = try await store.invocation(id: id)
            } catch {
                return promise.resolve(.failure(.storageFailed("invocation '\(id)' could not be read: \(error)")))
            }
            guard let found else { return promise.resolve(.failure(.unknownInvocation(id))) }
            guard c.scope.contains(found.appID) else {
                let own = if case .only(let own) = c.scope { own ?? "" } else { "" }
                return promise.resolve(.failure(.accessDenied(
                    "GetInvocation for app '\(found.appID)' is not allowed; the caller is \(c.caller) (app id '\(own)')")))
            }
            promise.resolve(.success(Out.InvocationDetails(invocation: found)))
        }
        return .pending(promise)
    }
}
