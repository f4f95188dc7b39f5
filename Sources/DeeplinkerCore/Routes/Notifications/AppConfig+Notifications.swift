extension AppConfig {
    /// Maps a clicked notification's payload (SPEC §5): `rules` in order (the first whose `when`
    /// exists, and equals `equals` if given, decides), then a URL at `url-key` routed like a link,
    /// then the target named at `target-key` with every other scalar (dotted names) as candidate
    /// parameters. The route's source is `notification`.
    public func resolveNotification(_ payload: JSONValue) throws(DeeplinkerError) -> ResolvedRoute {
        guard case .object = payload else { throw .invalidPayload("a notification payload must be a JSON object") }
        let notificationID = notifications.idKey.flatMap { payload.value(at: $0)?.scalarText }

        for rule in notifications.rules {
            guard let value = payload.value(at: rule.when), value != .null else { continue }
            if let equals = rule.equals, value.scalarText != equals { continue }
            guard let target = targets[rule.target] else { continue }
            var candidates: [String: String] = [:]
            for (name, path) in rule.paramsFrom {
                guard let found = payload.value(at: path), found != .null else { continue }
                guard let text = found.scalarText else {
                    throw .invalidParameter(name: name, value: nil, reason: "the payload value at '\(path)' is not a string, number or boolean")
                }
                candidates[name] = text
            }
            let parameters = try ParameterBinder.bind(target: target, fixed: rule.params, captures: candidates)
            return ResolvedRoute(
                appID: appID, route: Route(target: target.name, parameters: parameters, source: .notification),
                notificationID: notificationID)
        }

        if let urlKey = notifications.urlKey, let value = payload.value(at: urlKey), value != .null {
            guard case .string(let link) = value else {
                throw .invalidPayload("the value at '\(urlKey)' must be a URL string")
            }
            let url = try ValidatedURL(link)
            var resolved = try resolve(url, source: .notification)
            resolved.notificationID = notificationID
            return resolved
        }

        if let targetKey = notifications.targetKey, let value = payload.value(at: targetKey), value != .null {
            guard case .string(let name) = value else {
                throw .invalidPayload("the value at '\(targetKey)' must be a target name string")
            }
            guard let target = targets[name] else {
                throw .noRoute(name, reason: "the notification names target '\(name)', which app '\(appID)' does not declare")
            }
            let candidates = payload.flattenedScalars().filter { $0.name != targetKey }
            let parameters = try ParameterBinder.bind(target: target, candidates: candidates)
            return ResolvedRoute(
                appID: appID, route: Route(target: name, parameters: parameters, source: .notification),
                notificationID: notificationID)
        }

        var tried: [String] = []
        if !notifications.rules.isEmpty { tried.append("no rule matched") }
        if let k = notifications.urlKey { tried.append("no '\(k)'") }
        if let k = notifications.targetKey { tried.append("no '\(k)'") }
        let reason = tried.isEmpty ? "app '\(appID)' configures no notification mapping" : tried.joined(separator: ", ")
        throw .noRoute("notification payload", reason: reason)
    }
}
