extension DBusConnection {
    /// Exports `object` at its path; replaces what was there. Takes effect before any later call
    /// on this connection is sent.
    public func export(_ object: DBusObject) throws(DBusError) {
        try Validation.check(path: object.path)
        for interface in object.interfaces {
            try Validation.check(interface: interface.name)
            for method in interface.methods { try Validation.check(member: method.name) }
        }
        loop.post { [self] in state.value.objects[object.path] = object }
    }

    /// Removes the object at `path`.
    public func unexport(path: String) {
        loop.post { [self] in state.value.objects[path] = nil }
    }

    /// Subscribes to signals matching `rule`: registers the rule with the bus (waiting for its
    /// answer) and calls `handler` on the loop thread for each match. Returns a token for `unsubscribe`.
    @discardableResult
    public func subscribe(
        _ rule: MatchRule, handler: @escaping @Sendable (DBusMessage, [DBusValue]) -> Void
    ) async throws(DBusError) -> UInt64 {
        let id = nextIdentifier()
        loop.post { [self] in state.value.subscriptions[id] = Subscription(rule: rule, handler: handler) }
        guard raw != nil else { return id }
        do {
            _ = try await call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", member: "AddMatch", arguments: [.string(rule.description)])
        } catch {
            loop.post { [self] in state.value.subscriptions[id] = nil }
            throw error
        }
        return id
    }

    /// Ends a subscription and removes its rule from the bus.
    public func unsubscribe(_ id: UInt64) {
        loop.post { [self] in
            guard let subscription = state.value.subscriptions.removeValue(forKey: id) else { return }
            if let message = try? DBusMessage.methodCall(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus", member: "RemoveMatch",
                arguments: [.string(subscription.rule.description)])
            {
                send(message)
            }
        }
    }
}
