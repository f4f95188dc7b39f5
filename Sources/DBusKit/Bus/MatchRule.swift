/// A signal match rule: sent to the bus with `AddMatch`, and checked locally to route each
/// received signal to its subscribers.
public struct MatchRule: Sendable, Hashable, CustomStringConvertible {
    public var sender: String?
    public var interface: String?
    public var member: String?
    public var path: String?
    public var pathNamespace: String?
    public var arg0: String?
    /// The third string argument (`NameOwnerChanged`'s new owner: `""` matches every name lost).
    public var arg2: String?

    public init(
        sender: String? = nil, interface: String? = nil, member: String? = nil,
        path: String? = nil, pathNamespace: String? = nil, arg0: String? = nil, arg2: String? = nil
    ) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.arg0 = arg0
        self.arg2 = arg2
    }

    /// The rule in the bus's text form.
    public var description: String {
        var parts = ["type='signal'"]
        func add(_ key: String, _ value: String?) {
            guard let value else { return }
            let quoted = value.replacing("'", with: "'\\''")
            parts.append("\(key)='\(quoted)'")
        }
        add("sender", sender)
        add("interface", interface)
        add("member", member)
        add("path", path)
        add("path_namespace", pathNamespace)
        add("arg0", arg0)
        add("arg2", arg2)
        return parts.joined(separator: ",")
    }

    /// Whether a received signal fits. A well-known `sender` cannot be checked locally (signals
    /// carry the unique name), so it is left to the bus, except for the bus driver itself.
    public func matches(_ message: DBusMessage, arguments: () -> [DBusValue]) -> Bool {
        guard message.type == .signal else { return false }
        if let sender, sender.hasPrefix(":") || sender == "org.freedesktop.DBus", message.sender != sender { return false }
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let path, message.path != path { return false }
        if let pathNamespace {
            guard let p = message.path else { return false }
            if pathNamespace != "/" && p != pathNamespace && !p.hasPrefix(pathNamespace + "/") { return false }
        }
        if let arg0 {
            guard arguments().first?.stringValue == arg0 else { return false }
        }
        if let arg2 {
            let values = arguments()
            guard values.count > 2, values[2].stringValue == arg2 else { return false }
        }
        return true
    }
}
