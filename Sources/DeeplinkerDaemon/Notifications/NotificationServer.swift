import DBusKit

/// The freedesktop notification server (`org.freedesktop.Notifications`): showing a notification
/// and the signals that report what the user did with it.
enum NotificationServer {
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    /// `Notify` with a `default` action (a click on the body) and the `desktop-entry` hint, so the
    /// server attributes the notification to the app. `completion` gets the server's id on the bus
    /// thread as the reply is dispatched, before any signal that follows the reply (an immediate
    /// `ActionInvoked` for that id) is.
    static func notify(
        _ connection: DBusConnection, appID: String, appName: String, summary: String, body: String,
        completion: @escaping @Sendable (Result<UInt32, DBusError>) -> Void
    ) {
        let message: DBusMessage
        do {
            message = try DBusMessage.methodCall(
                destination: name, path: path, interface: name, member: "Notify",
                arguments: [
                    .string(appName), .uint32(0), .string(""), .string(summary), .string(body),
                    .strings(["default", "Open"]), .variantDictionary(["desktop-entry": .string(appID)]), .int32(-1),
                ])
        } catch {
            return completion(.failure(error))
        }
        connection.startCall(message, timeout: .seconds(10)) { result in
            completion(result.flatMap { reply in
                guard let arguments = try? reply.arguments(), let id = arguments.first?.uint32Value else {
                    return .failure(.failed("Notify answered something else than an id"))
                }
                return .success(id)
            })
        }
    }
}
