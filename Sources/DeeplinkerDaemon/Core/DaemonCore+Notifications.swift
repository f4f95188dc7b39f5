import DeeplinkerCore
import Foundation
import DeeplinkerProtocol

extension DaemonCore {
    /// Checks that a notification can be posted: a configured app and a payload that routes.
    func notificationAppName(appID: String, payload: String) throws(DeeplinkerError) -> String {
        let config = try registry.config(appID)
        _ = try registry.resolveNotification(appID: appID, payloadJSON: payload)
        return config.name ?? appID
    }

    /// Remembers a posted notification durably.
    func rememberNotification(id: UInt32, appID: String, payload: String) -> PendingCommit {
        let posted = PostedNotification(id: id, appID: appID, payload: payload, postedAt: engine.now)
        postedNotifications[id] = posted
        return store.enqueue([.notificationPosted(posted)])
    }

    /// `ActivationToken(id, token)`: kept for the `ActionInvoked` that follows.
    func activationToken(_ token: String, notification id: UInt32) {
        notificationTokens[id] = token
    }

    /// `ActionInvoked`: for a remembered notification, as if `ActivateNotification` had been called;
    /// other notifications (another program's, or closed ones) are ignored.
    func notificationClicked(id: UInt32, action: String) {
        guard let notification = postedNotifications[id] else {
            notificationTokens[id] = nil
            return
        }
        var data = [PlatformDataKey.notificationAction: action]
        if let token = notificationTokens.removeValue(forKey: notification.id) { data[PlatformDataKey.activationToken] = token }
        let appID = notification.appID
        let payload = notification.payload
        let (result, _) = invoke(appID: appID, kind: "notification", input: payload, source: .notification, platformData: data) {
            (registry, _) throws(DeeplinkerError) in .route(try registry.resolveNotification(appID: appID, payloadJSON: payload))
        }
        if case .failure(let error) = result {
            logger.warning("click on notification \(notification.id) of \(appID): \(error.message)")
        }
    }

    /// `NotificationClosed`: forgets the notification.
    func notificationClosed(_ id: UInt32) {
        notificationTokens[id] = nil
        guard postedNotifications.removeValue(forKey: id) != nil else { return }
        _ = store.enqueue([.notificationClosed(id: id)])
    }
}
