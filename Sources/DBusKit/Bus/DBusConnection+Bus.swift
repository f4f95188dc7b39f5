/// Calls to the bus driver, `org.freedesktop.DBus`.
extension DBusConnection {
    static let busName = "org.freedesktop.DBus"
    static let busPath = "/org/freedesktop/DBus"

    private func callBus(_ member: String, _ arguments: [DBusValue] = []) async throws(DBusError) -> [DBusValue] {
        try await call(destination: Self.busName, path: Self.busPath, interface: Self.busName, member: member, arguments: arguments)
    }

    /// Requests a well-known name. With `queue` false (DO_NOT_QUEUE) a taken name answers `.exists`.
    public func requestName(_ name: String, queue: Bool = false, replaceExisting: Bool = false) async throws(DBusError) -> RequestNameReply {
        try Validation.check(busName: name)
        var flags: UInt32 = 0
        if replaceExisting { flags |= 2 }
        if !queue { flags |= 4 }
        let reply = try await callBus("RequestName", [.string(name), .uint32(flags)])
        guard let code = reply.first?.uint32Value, let result = RequestNameReply(rawValue: code) else {
            throw .failed("unexpected RequestName reply \(reply)")
        }
        return result
    }

    /// Releases a well-known name this connection owns.
    public func releaseName(_ name: String) async throws(DBusError) {
        _ = try await callBus("ReleaseName", [.string(name)])
    }

    /// The unique name owning `name`, or nil when nobody owns it.
    public func nameOwner(_ name: String) async throws(DBusError) -> String? {
        do {
            return try await callBus("GetNameOwner", [.string(name)]).first?.stringValue
        } catch where error.name == DBusError.nameHasNoOwnerName {
            return nil
        }
    }

    /// Starts the service that can own `name` (bus activation); true when it was started, false
    /// when it already ran.
    public func startServiceByName(_ name: String) async throws(DBusError) -> Bool {
        let reply = try await callBus("StartServiceByName", [.string(name), .uint32(0)])
        return reply.first?.uint32Value == 1
    }

    /// Names that the bus can start on demand.
    public func listActivatableNames() async throws(DBusError) -> [String] {
        try await callBus("ListActivatableNames").first?.stringArray ?? []
    }

    /// Names currently on the bus.
    public func listNames() async throws(DBusError) -> [String] {
        try await callBus("ListNames").first?.stringArray ?? []
    }

    /// Subscribes to `NameOwnerChanged` (optionally for one name): handler gets (name, old owner, new owner),
    /// owners as "" when none.
    @discardableResult
    public func onNameOwnerChanged(
        name: String? = nil, _ handler: @escaping @Sendable (_ name: String, _ oldOwner: String, _ newOwner: String) -> Void
    ) async throws(DBusError) -> UInt64 {
        let rule = MatchRule(sender: Self.busName, interface: Self.busName, member: "NameOwnerChanged", path: Self.busPath, arg0: name)
        return try await subscribe(rule) { _, arguments in
            guard arguments.count == 3, let name = arguments[0].stringValue, let old = arguments[1].stringValue,
                let new = arguments[2].stringValue
            else { return }
            handler(name, old, new)
        }
    }

    /// The process id behind a connection, from `GetConnectionCredentials`.
    public func processID(of name: String) async throws(DBusError) -> UInt32 {
        let reply = try await callBus("GetConnectionCredentials", [.string(name)])
        guard case .uint32(let pid)? = reply.first?.variantDictionaryValue?["ProcessID"] else {
            throw .failed("the bus knows no process id for \(name)")
        }
        return pid
    }

    /// Subscribes to every name leaving the bus (`NameOwnerChanged` with no new owner): one rule
    /// for all unique names, rather than one per connection. `handler` gets the name.
    @discardableResult
    public func onNameLost(_ handler: @escaping @Sendable (_ name: String) -> Void) async throws(DBusError) -> UInt64 {
        let rule = MatchRule(sender: Self.busName, interface: Self.busName, member: "NameOwnerChanged", path: Self.busPath, arg2: "")
        return try await subscribe(rule) { _, arguments in
            guard let name = arguments.first?.stringValue else { return }
            handler(name)
        }
    }

    /// `org.freedesktop.DBus.Peer.Ping` on `destination`.
    public func ping(_ destination: String, path: String = "/", timeout: Duration? = nil) async throws(DBusError) {
        _ = try await call(destination: destination, path: path, interface: "org.freedesktop.DBus.Peer", member: "Ping", timeout: timeout)
    }
}
