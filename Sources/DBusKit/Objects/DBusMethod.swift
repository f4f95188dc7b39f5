/// A method an exported object offers; the handler runs on the connection's loop thread and
/// must answer through the `DBusMethodCall` (at once or later, from any thread).
public struct DBusMethod: Sendable {
    public var name: String
    public var inArguments: [DBusArgument]
    public var outArguments: [DBusArgument]
    public var handler: @Sendable (DBusMethodCall) -> Void
    /// What the method does, served in introspection as GDBus's `org.gtk.GDBus.DocString` annotation.
    public var documentation: String?

    public init(
        _ name: String, in inArguments: [DBusArgument] = [], out outArguments: [DBusArgument] = [],
        documentation: String? = nil, handler: @escaping @Sendable (DBusMethodCall) -> Void
    ) {
        self.name = name
        self.inArguments = inArguments
        self.outArguments = outArguments
        self.documentation = documentation
        self.handler = handler
    }

    /// The body signature a call must carry.
    public var inSignature: String { inArguments.map(\.signature).joined() }
}
