import DBusKit
import DeeplinkerCore

extension Daemon {
    /// The bus-side handler of one method-table entry: holds every string argument to 64 KiB
    /// (SPEC §4) before any work, then runs the entry's handler on the core in bus order. An
    /// oversized argument of an invocation for a configured app is recorded as `rejected` first.
    func handler(for method: DaemonMethod) -> @Sendable (DBusMethodCall) -> Void {
        let events = self.events
        return { call in
            var strings: [String] = []
            for (index, value) in call.arguments.enumerated() {
                let argument = method.inputs[index].name
                if let items = value.stringArray, let item = items.first(where: { $0.utf8.count > Limits.stringArgumentBytes }) {
                    return call.fail(DeeplinkerError.tooLarge(
                        what: "an element of argument '\(argument)'", size: item.utf8.count, limit: Limits.stringArgumentBytes).dbusError)
                }
                guard case .string(let s) = value else { continue }
                if s.utf8.count > Limits.stringArgumentBytes {
                    let error = DeeplinkerError.tooLarge(what: "argument '\(argument)'", size: s.utf8.count, limit: Limits.stringArgumentBytes)
                    guard index > 0, let app = call.arguments[0].stringValue, let source = method.refusalSource?(call.arguments)
                    else { return call.fail(error.dbusError) }
                    return events.submit { core in
                        let commit = core.reject(appID: app, source: source, error: error)
                        MethodCallReplies.answer(call, Result<InvocationReply, DeeplinkerError>.failure(error), after: commit, MethodCallReplies.route)
                    }
                }
                strings.append(s)
            }
            let arguments = strings
            events.submit { core in method.handler(call, arguments, core) }
        }
    }
}
