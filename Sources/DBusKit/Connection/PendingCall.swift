/// A call waiting for its reply; resumed once, by the reply, a time-out or a disconnect.
final class PendingCall: @unchecked Sendable {
    // Touched only on the loop thread.
    let id: UInt64
    var completion: (@Sendable (Result<DBusMessage, DBusError>) -> Void)?
    weak var connection: DBusConnection?

    init(id: UInt64, connection: DBusConnection, completion: @escaping @Sendable (Result<DBusMessage, DBusError>) -> Void) {
        self.id = id
        self.connection = connection
        self.completion = completion
    }

    func finish(_ result: Result<DBusMessage, DBusError>) {
        guard let completion else { return }
        self.completion = nil
        connection?.state.value.pendingCalls[id] = nil
        completion(result)
    }
}
