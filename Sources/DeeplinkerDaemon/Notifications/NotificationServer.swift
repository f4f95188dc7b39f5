import DBusKit

/// The freedesktop notification server (`org.freedesktop.Notifications`): showing a notification
/// and the signals that report what the user did with it.
enum NotificationServer {
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    /// `Notify` with a `default` action (a click on the body) and the `desktop-entry` hint, so the
    /// server attributes the notification to the app; returns the server's id.
    static func notify(
        _ connection: DBusConnection, appID: String, appName: String, summary: String, body: String
    ) async throws(DBusError) -> UInt32 {
        let reply = try await connection.call(
            destination: name, path: path, interface: name, member: "Notify",
            arguments: [
                .string(appName), .uint32(0), .string(""), .string(summary), .string(body),
                .strings(["default", "Open"]), .variantDictionary(["desktop-entry": .string(appID)]), .int32(-1),
            ],
            timeout: .seconds(10))
        guard let id = reply.first?.uint32Value else { throw .failed("Notify answered \(reply) instead of an id") }
        return id
    }
}
