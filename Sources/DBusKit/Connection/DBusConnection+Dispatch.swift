internal import CDBus

// Loop-thread side of `DBusConnection`: the filter that receives every message, pending-call
// completion, and routing of method calls and signals.

extension DBusConnection {
    func installFilter() {
        guard let raw else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_add_filter(
            raw,
            { _, message, data in
                guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
                let connection = Unmanaged<DBusConnection>.fromOpaque(data).takeUnretainedValue()
                return connection.handle(DBusMessage(retaining: message))
                    ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
            },
            me, nil)
    }

    /// Dispatches every message libdbus has read.
    func dispatchAll() {
        guard !isClosed, let raw else { return }
        while dbus_connection_get_dispatch_status(raw) == DBUS_DISPATCH_DATA_REMAINS {
            dbus_connection_dispatch(raw)
        }
    }

    func sendWithReply(
        _ message: DBusMessage, milliseconds: Int32, completion: @escaping @Sendable (Result<DBusMessage, DBusError>) -> Void
    ) {
        var pendingRaw: OpaquePointer? = nil
        guard let raw else { return completion(.failure(.disconnected())) }
        guard dbus_connection_send_with_reply(raw, message.raw, &pendingRaw, milliseconds) != 0 else {
            return completion(.failure(.noMemory()))
        }
        guard let pendingRaw else { return completion(.failure(.disconnected())) }
        let pending = PendingCall(id: nextIdentifier(), connection: self, completion: completion)
        state.value.pendingCalls[pending.id] = pending
        let box = Unmanaged.passRetained(pending).toOpaque()
        let set = dbus_pending_call_set_notify(
            pendingRaw,
            { pendingRaw, data in
                guard let pendingRaw, let data else { return }
                let pending = Unmanaged<PendingCall>.fromOpaque(data).takeUnretainedValue()
                guard let reply = dbus_pending_call_steal_reply(pendingRaw) else {
                    return pending.finish(.failure(.disconnected("no reply")))
                }
                let message = DBusMessage(owning: reply)
                if let error = message.asError {
                    pending.finish(.failure(error))
                } else {
                    pending.finish(.success(message))
                }
            },
            box,
            { data in
                guard let data else { return }
                Unmanaged<PendingCall>.fromOpaque(data).release()
            })
        if set == 0 {
            Unmanaged<PendingCall>.fromOpaque(box).release()
            pending.finish(.failure(.noMemory()))
        }
        // The notify function keeps what it needs; a reply that is already here fires at once.
        if dbus_pending_call_get_completed(pendingRaw) != 0, pending.completion != nil,
            let reply = dbus_pending_call_steal_reply(pendingRaw)
        {
            let message = DBusMessage(owning: reply)
            pending.finish(message.asError.map { .failure($0) } ?? .success(message))
        }
        dbus_pending_call_unref(pendingRaw)
    }

    /// Fails every call still waiting (after close).
    func failPendingCalls() {
        let waiting = Array(state.value.pendingCalls.values)
        state.value.pendingCalls.removeAll()
        for call in waiting { call.finish(.failure(.disconnected())) }
    }

    /// Routes one received message; returns whether it was handled.
    func handle(_ message: DBusMessage) -> Bool {
        switch message.type {
        case .methodCall:
            return handleMethodCall(message)
        case .signal:
            if message.interface == "org.freedesktop.DBus.Local", message.member == "Disconnected" {
                handleDisconnect()
                return true
            }
            deliverSignal(message)
            return false
        default:
            return false
        }
    }

    private func handleDisconnect() {
        failPendingCalls()
        loop.running = false
        for handler in markClosedByPeer() { handler() }
    }

    private func deliverSignal(_ message: DBusMessage) {
        guard !state.value.subscriptions.isEmpty else { return }
        var decoded: [DBusValue]?
        let arguments = { () -> [DBusValue] in
            if let decoded { return decoded }
            let values = (try? message.arguments()) ?? []
            decoded = values
            return values
        }
        for (_, subscription) in state.value.subscriptions.sorted(by: { $0.key < $1.key })
        where subscription.rule.matches(message, arguments: arguments) {
            subscription.handler(message, arguments())
        }
    }

    private func handleMethodCall(_ message: DBusMessage) -> Bool {
        guard let path = message.path else { return false }
        guard let object = state.value.objects[path] else {
            if message.interface == "org.freedesktop.DBus.Introspectable" || (message.interface == nil && message.member == "Introspect") {
                let children = childNodes(of: path)
                guard !children.isEmpty else { return false }
                respond(message, [.string(DBusIntrospection.xml(interfaces: [], children: children))])
                return true
            }
            return false
        }
        let member = message.member ?? ""
        let interfaceName = message.interface
        switch interfaceName {
        case "org.freedesktop.DBus.Introspectable" where member == "Introspect":
            respond(message, [.string(DBusIntrospection.xml(interfaces: object.interfaces, children: childNodes(of: path)))])
            return true
        case "org.freedesktop.DBus.Properties":
            handleProperties(message, object: object, member: member)
            return true
        case "org.freedesktop.DBus.Peer":
            return false  // libdbus answers Ping and GetMachineId
        default:
            break
        }
        let candidates = interfaceName.map { name in object.interface(named: name).map { [$0] } ?? [] } ?? object.interfaces
        guard let method = candidates.lazy.compactMap({ $0.method(named: member) }).first else {
            let where_ = interfaceName.map { "interface '\($0)'" } ?? "any interface"
            respondError(message, DBusError(
                name: DBusError.unknownMethodName,
                message: "no method '\(member)' in \(where_) at '\(path)'"))
            return true
        }
        let signature = message.bodySignature
        guard signature == method.inSignature else {
            respondError(message, .invalidArgs(
                "\(method.name) takes arguments '\(method.inSignature)', not '\(signature)'"))
            return true
        }
        let arguments: [DBusValue]
        do {
            arguments = try message.arguments()
        } catch {
            respondError(message, error)
            return true
        }
        method.handler(DBusMethodCall(message: message, arguments: arguments, connection: self))
        return true
    }

    private func handleProperties(_ message: DBusMessage, object: DBusObject, member: String) {
        let arguments = (try? message.arguments()) ?? []
        let interfaceName = arguments.first?.stringValue ?? ""
        switch (member, message.bodySignature) {
        case ("Get", "ss"):
            let name = arguments[1].stringValue ?? ""
            guard let property = object.interface(named: interfaceName)?.property(named: name) else {
                return respondError(message, DBusError(
                    name: "org.freedesktop.DBus.Error.UnknownProperty",
                    message: "no property '\(name)' in interface '\(interfaceName)'"))
            }
            respond(message, [.variant(property.get())])
        case ("GetAll", "s"):
            guard let interface = object.interface(named: interfaceName) else {
                if interfaceName.isEmpty || interfaceName.hasPrefix("org.freedesktop.DBus.") {
                    return respond(message, [.variantDictionary([:])])
                }
                return respondError(message, DBusError(
                    name: "org.freedesktop.DBus.Error.UnknownInterface",
                    message: "no interface '\(interfaceName)' at '\(object.path)'"))
            }
            var values: [String: DBusValue] = [:]
            for property in interface.properties { values[property.name] = property.get() }
            respond(message, [.variantDictionary(values)])
        case ("Set", "ssv"):
            let name = arguments[1].stringValue ?? ""
            respondError(message, DBusError(
                name: "org.freedesktop.DBus.Error.PropertyReadOnly",
                message: "property '\(name)' of interface '\(interfaceName)' is read-only"))
        default:
            respondError(message, .invalidArgs(
                "no method '\(member)' with arguments '\(message.bodySignature)' in org.freedesktop.DBus.Properties"))
        }
    }

    /// Names of the next path elements below `path` that lead to exported objects.
    private func childNodes(of path: String) -> [String] {
        let prefix = path == "/" ? "/" : path + "/"
        var names = Set<String>()
        for exported in state.value.objects.keys where exported.hasPrefix(prefix) && exported != path {
            let rest = exported.dropFirst(prefix.count)
            if let first = rest.split(separator: "/").first { names.insert(String(first)) }
        }
        return names.sorted()
    }

    private func respond(_ message: DBusMessage, _ values: [DBusValue]) {
        guard message.expectsReply, let reply = try? message.makeReply(values) else { return }
        sendOnLoop(reply)
    }

    private func respondError(_ message: DBusMessage, _ error: DBusError) {
        guard message.expectsReply, let reply = try? message.makeErrorReply(error) else { return }
        sendOnLoop(reply)
    }

    /// Sends at once, on the loop thread (a reply to the message being dispatched).
    private func sendOnLoop(_ message: DBusMessage) {
        guard let raw else { return detachedSink?(message) ?? () }
        _ = dbus_connection_send(raw, message.raw, nil)
    }
}
