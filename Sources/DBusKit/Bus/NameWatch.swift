import TaskThreads

/// Who owns one bus name, followed without a gap: its `NameOwnerChanged`
/// signals are subscribed to first (an `arg0` rule, not every name on the bus), then the owner
/// is read, so no change between the two is lost. States: starting → watching → cancelled.
public final class NameWatch: Sendable {
    public enum State: Sendable, Equatable {
        /// Subscribing, or reading the first owner.
        case starting
        /// Active: changes are reported.
        case watching
        /// Let go; no further reports.
        case cancelled
    }

    public let name: String
    private let connection: DBusConnection
    private let status = LockedValue<(state: State, token: UInt64?)>((.starting, nil))

    public var state: State { status.withLock { $0.state } }

    private init(name: String, connection: DBusConnection) {
        self.name = name
        self.connection = connection
    }

    /// Starts watching `name`: `onChange` gets every later owner ("" when it has none), and the
    /// owner at the time the watch became active is returned with the watch.
    public static func start(
        _ name: String, on connection: DBusConnection, onChange: @escaping @Sendable (_ newOwner: String) -> Void
    ) async throws(DBusError) -> (watch: NameWatch, owner: String?) {
        let watch = NameWatch(name: name, connection: connection)
        let token = try await connection.onNameOwnerChanged(name: name) { [weak watch] _, _, owner in
            guard watch?.state != .cancelled else { return }
            onChange(owner)
        }
        let owner = try? await connection.nameOwner(name)
        let cancelled = watch.status.withLock { status -> Bool in
            guard status.state == .starting else { return true }
            status = (.watching, token)
            return false
        }
        if cancelled { connection.unsubscribe(token) }
        return (watch, owner)
    }

    /// Stops reporting and removes the rule from the bus.
    public func cancel() {
        let token = status.withLock { status -> UInt64? in
            defer { status = (.cancelled, nil) }
            return status.token
        }
        if let token { connection.unsubscribe(token) }
    }
}
