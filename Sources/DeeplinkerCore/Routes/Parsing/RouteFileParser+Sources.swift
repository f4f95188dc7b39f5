extension RouteFileParser {
    func parseNotifications(_ value: TOMLValue?, at path: TOMLKeyPath, targets: [String: TargetSchema]) throws(ConfigError) -> NotificationConfig {
        guard let value else { return NotificationConfig() }
        let t = try table(value, at: path)
        try checkKeys(t, at: path, allowed: ["target-key", "url-key", "id-key", "rules"])
        var config = NotificationConfig()
        config.targetKey = try t["target-key"].map { v throws(ConfigError) in try dottedPath(v, at: path.appending("target-key")) }
        config.urlKey = try t["url-key"].map { v throws(ConfigError) in try dottedPath(v, at: path.appending("url-key")) }
        config.idKey = try t["id-key"].map { v throws(ConfigError) in try dottedPath(v, at: path.appending("id-key")) }
        guard let rules = t["rules"] else { return config }
        let rulesPath = path.appending("rules")
        for (i, element) in try array(rules, at: rulesPath).enumerated() {
            let rulePath = rulesPath.appending(i)
            let r = try table(element, at: rulePath)
            try checkKeys(r, at: rulePath, allowed: ["when", "equals", "target", "params-from", "params"])
            guard let when = r["when"] else { throw fail(rulePath, "missing key \"when\"", atKey: true) }
            guard let targetValue = r["target"] else { throw fail(rulePath, "missing key \"target\"", atKey: true) }
            let schema = try declaredTarget(try string(targetValue, at: rulePath.appending("target")), in: targets, at: rulePath.appending("target"))
            var rule = NotificationRule(when: try dottedPath(when, at: rulePath.appending("when")), target: schema.name)
            rule.equals = try r["equals"].map { v throws(ConfigError) in try scalarText(v, at: rulePath.appending("equals")) }
            if let from = r["params-from"] {
                let fromPath = rulePath.appending("params-from")
                let fromTable = try table(from, at: fromPath)
                for entry in fromTable.entries {
                    let name = try key(entry, at: fromPath)
                    guard schema.parameters[name] != nil else {
                        throw fail(fromPath.appending(name), "parameter \"\(name)\" is not declared by target \"\(schema.name)\"", atKey: true)
                    }
                    rule.paramsFrom[name] = try dottedPath(entry.value, at: fromPath.appending(name))
                }
            }
            rule.params = try fixedParams(r["params"], at: rulePath.appending("params"), target: schema)
            if let clash = rule.params.keys.sorted().first(where: { rule.paramsFrom[$0] != nil }) {
                throw fail(rulePath.appending("params").appending(clash), "parameter \"\(clash)\" is in both params-from and params", atKey: true)
            }
            config.rules.append(rule)
        }
        return config
    }

    func parseShortcuts(_ value: TOMLValue?, at path: TOMLKeyPath, targets: [String: TargetSchema]) throws(ConfigError) -> [ShortcutConfig] {
        guard let value else { return [] }
        var shortcuts: [ShortcutConfig] = []
        for (i, element) in try array(value, at: path).enumerated() {
            let itemPath = path.appending(i)
            let s = try table(element, at: itemPath)
            try checkKeys(s, at: itemPath, allowed: ["type", "title", "icon", "target", "params"])
            for key in ["type", "title", "target"] where s[key] == nil {
                throw fail(itemPath, "missing key \"\(key)\"", atKey: true)
            }
            let type = try string(s["type"]!, at: itemPath.appending("type"))
            guard !type.isEmpty else { throw fail(itemPath.appending("type"), "shortcut type must not be empty") }
            // A type ends up in desktop entries (Exec lines), which cannot hold control characters.
            guard !type.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw fail(itemPath.appending("type"), "shortcut type \"\(type.debugDescription.dropFirst().dropLast())\" contains a control character")
            }
            if shortcuts.contains(where: { $0.type == type }) {
                throw fail(itemPath.appending("type"), "shortcut type \"\(type)\" is configured twice")
            }
            let title = try string(s["title"]!, at: itemPath.appending("title"))
            let icon = try s["icon"].map { v throws(ConfigError) in try string(v, at: itemPath.appending("icon")) }
            let targetPath = itemPath.appending("target")
            let schema = try declaredTarget(try string(s["target"]!, at: targetPath), in: targets, at: targetPath)
            let params = try fixedParams(s["params"], at: itemPath.appending("params"), target: schema)
            if let missing = schema.parameters.keys.sorted().first(where: { !schema.parameters[$0]!.optional && params[$0] == nil }) {
                throw fail(targetPath, "shortcut \"\(type)\" leaves required parameter \"\(missing)\" of target \"\(schema.name)\" unset")
            }
            shortcuts.append(ShortcutConfig(type: type, title: title, icon: icon, target: schema.name, params: params))
        }
        return shortcuts
    }
}
