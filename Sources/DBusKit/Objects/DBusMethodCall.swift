import Synchronization

/// An incoming method call. Answer it exactly once, from any thread, at any time.
public final class DBusMethodCall: Sendable {
    public let message: DBusMessage
    public let arguments: [DBusValue]
    private let connection: DBusConnection
    private let answered = Atomic<Bool>(false)

    init(message: DBusMessage, arguments: [DBusValue], connection: DBusConnection) {
        self.message = message
        self.arguments = arguments
        self.connection = connection
    }

    /// The caller's unique bus name.
    public var sender: String { message.sender ?? "" }
    public var path: String { message.path ?? "" }
    public var member: String { message.member ?? "" }

    /// Sends a method return; values that cannot be marshalled become an error reply.
    public func reply(_ values: [DBusValue] = []) {
        guard claim() else { return }
        do {
            connection.send(try message.makeReply(values))
        } catch {
            if let reply = try? message.makeErrorReply(.failed("reply could not be marshalled: \(error.message)")) {
                connection.send(reply)
            }
        }
    }

    /// Encodes a method return now and returns what sends it later (a reply that waits for the
    /// disk is encoded while the disk works, so only the write is left once it may go).
    public func preparedReply(_ values: [DBusValue]) -> @Sendable () -> Void {
        guard let message = try? message.makeReply(values) else { return { self.reply(values) } }
        return {
            guard self.claim() else { return }
            self.connection.send(message)
        }
    }

    /// Sends an error reply.
    public func fail(_ error: DBusError) {
        guard claim() else { return }
        if let reply = try? message.makeErrorReply(error) { connection.send(reply) }
    }

    /// True the first time; later answers are ignored. Calls sent with NO_REPLY_EXPECTED get none.
    private func claim() -> Bool {
        let (exchanged, _) = answered.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        return exchanged && message.expectsReply
    }
}
