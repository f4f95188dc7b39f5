import DBusKit
import DeeplinkerCore

/// What a handler knows of its call besides the arguments.
struct CallContext: Sendable {
    /// The caller's unique bus name.
    let sender: String
    let caller: Caller
    /// The apps the caller may see (`ListApps`, `GetHistory("")`).
    let scope: Access.Scope
}

/// One method of `org.deeplinker.Deeplinker1` (SPEC §3): its signature, what it does (served in
/// introspection), who may call it, and its typed handler. The daemon's whole API is the table of
/// these in `Daemon+MethodTable.swift`; the one dispatcher (`Daemon+Dispatch.swift`) runs them.
struct DaemonMethod: Sendable {
    /// A handler gets its decoded arguments and returns its reply or throws; it runs on the core.
    typealias Handler<Input, Output> = @Sendable (Input, CallContext, isolated DaemonCore) throws(DeeplinkerError) -> Reply<Output>

    let name: String
    let inputs: [DBusArgument]
    let outputs: [DBusArgument]
    let documentation: String
    let access: Access
    /// For invocation methods (which are rate-limited for sandboxed callers): the source a call
    /// refused before routing is recorded with (status `rejected`); nil for other methods.
    let refusalSource: (@Sendable ([DBusValue]) -> Source)?
    /// Decodes the arguments, runs the handler and encodes its reply.
    let run: @Sendable ([DBusValue], CallContext, isolated DaemonCore) -> Reply<[DBusValue]>

    init<Input: MethodInput, Output: MethodOutput>(
        _ name: String, _ input: Input.Type, _ output: Output.Type, access: Access, _ documentation: String,
        refusalSource: (@Sendable ([DBusValue]) -> Source)? = nil, handler: @escaping Handler<Input, Output>
    ) {
        self.name = name
        self.inputs = Input.arguments
        self.outputs = Output.arguments
        self.documentation = documentation
        self.access = access
        self.refusalSource = refusalSource
        self.run = { values, context, core in
            let input: Input
            do throws(DeeplinkerError) {
                var reader = ArgumentReader(values, declared: Input.arguments)
                input = try Input(&reader)
            } catch {
                // An oversized argument of an invocation for a configured app is recorded as `rejected`.
                guard let refusalSource, let app = values.first?.stringValue, !app.isEmpty,
                    app.utf8.count <= Limits.stringArgumentBytes
                else { return .now(.failure(error)) }
                return .afterCommit(.failure(error), core.reject(appID: app, source: refusalSource(values), error: error))
            }
            do throws(DeeplinkerError) {
                return try handler(input, context, core).map(\.values)
            } catch {
                return .now(.failure(error))
            }
        }
    }
}

extension Reply {
    func map<T: Sendable>(_ transform: @escaping @Sendable (Output) -> T) -> Reply<T> {
        switch kind {
        case .now(let result, let then): Reply<T>(kind: .now(result.map(transform), then: then))
        case .afterCommit(let result, let commit): .afterCommit(result.map(transform), commit)
        case .pending(let promise): .pending(promise.map(transform))
        case .relayed(let result): Reply<T>(kind: .relayed(result.map(transform)))
        }
    }
}
