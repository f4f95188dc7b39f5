extension AppConfig {
    /// The delivery and pending-deeplink settings the lifecycle engine needs (`AppPolicy`).
    public var policy: AppPolicy {
        let mode: AppPolicy.DeliveryMode = switch delivery {
        case .activateAction: .activateAction
        case .signal: .signal
        case .exec: .exec(command: deliverCommand ?? [])
        case .open: .open(templates: openTemplates)
        }
        return AppPolicy(
            pendingTTL: pendingTTL, dedupeWindow: dedupeWindow, deliveryTimeout: deliveryTimeout, maxAttempts: maxAttempts,
            lifecycleSenders: lifecycleSenders == .any ? .any : .owner, restoreLastRoute: restoreLastRoute, delivery: mode,
            raise: raise, ready: ready,
            targetParameters: targets.mapValues { $0.parameters.keys.sorted() })
    }
}

extension AppRegistry {
    /// The policy of every configured app, as the engine takes them (start-up and reload).
    public var policies: [String: AppPolicy] {
        apps.mapValues(\.policy)
    }
}
