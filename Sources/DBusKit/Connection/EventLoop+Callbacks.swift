internal import CDBus

// The libdbus callbacks of `EventLoop`. They live in an ordinary file, not main.swift, so they
// carry no actor isolation (a C callback with actor isolation traps with SIGILL when libdbus
// calls it off that actor).

extension EventLoop {
    /// Hands libdbus our watch and timeout functions for `connection`.
    func install(on connection: OpaquePointer) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(
            connection,
            { watch, data in
                guard let watch, let data else { return 0 }
                Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().watches.append(watch)
                return 1
            },
            { watch, data in
                guard let watch, let data else { return }
                Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().watches.removeAll { $0 == watch }
            },
            { _, _ in },  // enabled state is read afresh before every poll
            me, nil)
        dbus_connection_set_timeout_functions(
            connection,
            { timeout, data in
                guard let timeout, let data else { return 0 }
                let loop = Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue()
                loop.timeouts.append(TimeoutEntry(timeout: timeout, deadline: EventLoop.deadline(for: timeout)))
                return 1
            },
            { timeout, data in
                guard let timeout, let data else { return }
                Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().timeouts.removeAll { $0.timeout == timeout }
            },
            { timeout, data in
                guard let timeout, let data else { return }
                let loop = Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue()
                if let index = loop.timeouts.firstIndex(where: { $0.timeout == timeout }) {
                    loop.timeouts[index].deadline = EventLoop.deadline(for: timeout)
                }
            },
            me, nil)
    }

    /// Takes our functions back before the connection is released.
    func uninstall(from connection: OpaquePointer) {
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        watches.removeAll()
        timeouts.removeAll()
    }
}
