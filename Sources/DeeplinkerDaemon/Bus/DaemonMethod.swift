import DBusKit
import DeeplinkerCore

/// One method of `org.deeplinker.Deeplinker1` (SPEC §3): its signature, what it does (served in
/// introspection), how a call refused before routing is recorded, and its handler. The daemon's
/// whole API is the table of these in `Daemon+MethodTable.swift`, as dbus-broker's
/// `driver_methods[]` is.
struct DaemonMethod: Sendable {
    /// Runs on the core (the bus thread) with the call and its string arguments, already held to
    /// the 64 KiB limit; it answers the call itself, usually once its change is durable.
    typealias Handler = @Sendable (DBusMethodCall, [String], isolated DaemonCore) -> Void

    let name: String
    let inputs: [DBusArgument]
    let outputs: [DBusArgument]
    let documentation: String
    /// For invocation methods: the source a call refused before routing is recorded with (status
    /// `rejected`); nil for methods that are not invocations.
    let refusalSource: (@Sendable ([DBusValue]) -> Source)?
    let handler: Handler

    init(
        _ name: String, in inputs: [DBusArgument], out outputs: [DBusArgument] = [], _ documentation: String,
        refusalSource: (@Sendable ([DBusValue]) -> Source)? = nil, handler: @escaping Handler
    ) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.documentation = documentation
        self.refusalSource = refusalSource
        self.handler = handler
    }
}
