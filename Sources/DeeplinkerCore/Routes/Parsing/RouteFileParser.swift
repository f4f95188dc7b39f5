/// Parses and validates a route file's text (SPEC §5) into an `AppConfig`. Every problem becomes a
/// `ConfigError` naming file, line, column and the offending value; the first one found is thrown.
public struct RouteFileParser {
    let file: String
    /// The parsed file, for the line and column of a key path in messages.
    let document: TOMLDocument

    static let topLevelKeys: Set<String> = [
        "name", "schemes", "domains", "launch", "delivery", "deliver-command", "pending-ttl", "dedupe-window",
        "delivery-timeout", "max-attempts", "lifecycle-senders", "restore-last-route", "raise", "ready", "fallback-target",
        "targets", "routes", "open", "notifications", "shortcuts",
    ]

    /// Placeholders `deliver-command` may use.
    public static let commandPlaceholders: Set<String> = ["target", "invocation-id", "source", "parameters-json"]

    /// Parses `text`, the content of `file`, as the route file of `appID`.
    public static func parse(_ text: String, appID: String, file: String) throws(ConfigError) -> AppConfig {
        if let nul = text.utf8.firstIndex(of: 0) {
            let prefix = text.utf8[text.utf8.startIndex..<nul]
            let line = prefix.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            throw ConfigError(file: file, line: line, column: 1, message: "the file contains a NUL character")
        }
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: text)
        } catch {
            throw ConfigError(file: file, line: error.location.line, column: error.location.column, message: "TOML syntax error: \(error.message)")
        }
        return try RouteFileParser(file: file, document: document).parseRoot(document.root, appID: appID)
    }

    func parseRoot(_ root: TOMLTable, appID: String) throws(ConfigError) -> AppConfig {
        let top = TOMLKeyPath()
        try checkKeys(root, at: top, allowed: Self.topLevelKeys)
        var config = AppConfig(appID: appID, file: file)

        if let value = root["name"] { config.name = try string(value, at: top.appending("name")) }
        config.schemeSpellings = try parseSchemes(root["schemes"], at: top.appending("schemes"))
        config.schemes = config.schemeSpellings.map { $0.lowercased() }
        config.domains = try parseDomains(root["domains"], at: top.appending("domains"))
        if let value = root["launch"] { config.launch = try parseLaunch(value, at: top.appending("launch")) }
        if let value = root["delivery"] {
            config.delivery = try enumValue(value, at: top.appending("delivery"), DeliveryMode.self)
        }
        if let value = root["deliver-command"] {
            config.deliverCommand = try parseDeliverCommand(value, at: top.appending("deliver-command"))
        }
        if let value = root["pending-ttl"] {
            let ttl = try duration(value, at: top.appending("pending-ttl"))
            config.pendingTTL = ttl == .zero ? nil : ttl
        }
        if let value = root["dedupe-window"] { config.dedupeWindow = try duration(value, at: top.appending("dedupe-window")) }
        if let value = root["delivery-timeout"] {
            let path = top.appending("delivery-timeout")
            config.deliveryTimeout = try duration(value, at: path)
            if config.deliveryTimeout == .zero { throw fail(path, "delivery-timeout must be longer than 0") }
        }
        if let value = root["max-attempts"] {
            let path = top.appending("max-attempts")
            let n = try int(value, at: path)
            guard (1...100).contains(n) else { throw fail(path, "max-attempts must be between 1 and 100, not \(n)") }
            config.maxAttempts = n
        }
        if let value = root["lifecycle-senders"] {
            config.lifecycleSenders = try enumValue(value, at: top.appending("lifecycle-senders"), LifecycleSenders.self)
        }
        if let value = root["raise"] { config.raise = try bool(value, at: top.appending("raise")) }
        if let value = root["ready"] { config.ready = try enumValue(value, at: top.appending("ready"), Readiness.self) }
        if let value = root["restore-last-route"] {
            config.restoreLastRoute = try bool(value, at: top.appending("restore-last-route"))
        }

        switch (config.delivery, config.deliverCommand) {
        case (.exec, nil):
            throw fail(top.appending("delivery"), "delivery = \"exec\" needs a deliver-command")
        case (.activateAction, .some), (.signal, .some), (.open, .some):
            throw fail(top.appending("deliver-command"), "deliver-command is only used with delivery = \"exec\"")
        default: break
        }

        config.targets = try parseTargets(root["targets"], at: top.appending("targets"))
        if let value = root["fallback-target"] {
            let path = top.appending("fallback-target")
            let name = try string(value, at: path)
            if !name.isEmpty {
                let target = try declaredTarget(name, in: config.targets, at: path)
                guard let url = target.parameters["url"], url.type == .string else {
                    throw fail(path, "fallback-target \"\(name)\" must declare a parameter url = \"string\"")
                }
                if let required = target.parameters.first(where: { $0.key != "url" && !$0.value.optional })?.key {
                    throw fail(path, "fallback-target \"\(name)\" has required parameter \"\(required)\" that a fallback never fills")
                }
                config.fallbackTarget = name
            }
        }
        // Checked whatever the delivery mode (SPEC §5's own example has one beside activate-action);
        // only delivery = "open" uses it.
        config.openTemplates = try parseOpen(root["open"], at: top.appending("open"), targets: config.targets)
        config.routes = try parseRoutes(root["routes"], at: top.appending("routes"), targets: config.targets)
        config.notifications = try parseNotifications(
            root["notifications"], at: top.appending("notifications"), targets: config.targets)
        config.shortcuts = try parseShortcuts(root["shortcuts"], at: top.appending("shortcuts"), targets: config.targets)
        config.matcher = RouteMatcher(routes: config.routes)
        return config
    }

    /// The schemes as spelled in the file, validated case-insensitively.
    func parseSchemes(_ value: TOMLValue?, at path: TOMLKeyPath) throws(ConfigError) -> [String] {
        guard let value else { return [] }
        var schemes: [String] = []
        var spellings: [String] = []
        for (i, text) in try stringArray(value, at: path).enumerated() {
            let lower = text.lowercased()
            let bytes = Array(lower.utf8)
            let valid = !bytes.isEmpty && bytes[0] >= 0x61 && bytes[0] <= 0x7A
                && bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
            guard valid else { throw fail(path.appending(i), "invalid URL scheme \"\(text)\"") }
            guard lower != "http", lower != "https" else {
                throw fail(path.appending(i), "\"\(text)\" is not a custom scheme; list web hosts in domains")
            }
            guard !schemes.contains(lower) else { throw fail(path.appending(i), "scheme \"\(text)\" is listed twice") }
            schemes.append(lower)
            spellings.append(text)
        }
        return spellings
    }

    func parseDomains(_ value: TOMLValue?, at path: TOMLKeyPath) throws(ConfigError) -> [DomainPattern] {
        guard let value else { return [] }
        var domains: [DomainPattern] = []
        for (i, text) in try stringArray(value, at: path).enumerated() {
            guard let domain = DomainPattern(parsing: text) else {
                throw fail(path.appending(i), "invalid domain \"\(text)\" (expected a host name or \"*.\" and a host name)")
            }
            guard !domains.contains(domain) else { throw fail(path.appending(i), "domain \"\(text)\" is listed twice") }
            domains.append(domain)
        }
        return domains
    }

    func parseLaunch(_ value: TOMLValue, at path: TOMLKeyPath) throws(ConfigError) -> LaunchMode {
        if case .array = value.kind {
            let argv = try stringArray(value, at: path)
            guard let first = argv.first, !first.isEmpty else {
                throw fail(path, "launch command must be a non-empty argv array with a program first")
            }
            return .command(argv)
        }
        switch try string(value, at: path) {
        case "auto": return .auto
        case "dbus": return .dbus
        case "desktop": return .desktop
        case "none": return .none
        case let other:
            throw fail(path, "invalid launch \"\(other)\" (expected \"auto\", \"dbus\", \"desktop\", \"none\" or an argv array)")
        }
    }

    /// `[open]`: target name → URI template whose `{parameter}`s the target declares.
    func parseOpen(_ value: TOMLValue?, at path: TOMLKeyPath, targets: [String: TargetSchema]) throws(ConfigError) -> [String: OpenTemplate] {
        guard let value else { return [:] }
        var templates: [String: OpenTemplate] = [:]
        for entry in try table(value, at: path).entries {
            let name = try key(entry, at: path)
            let entryPath = path.appending(name)
            guard let target = targets[name] else {
                let declared = targets.keys.sorted().joined(separator: ", ")
                throw fail(entryPath, "undeclared target \"\(name)\" (declared: \(declared.isEmpty ? "none" : declared))", atKey: true)
            }
            let text = try string(entry.value, at: entryPath)
            do throws(OpenTemplate.Problem) {
                templates[name] = try OpenTemplate(parsing: text, target: target)
            } catch {
                var message = "invalid URI template \"\(text)\": \(error)"
                if case .undeclaredParameter = error {
                    let declared = target.parameters.keys.sorted().joined(separator: ", ")
                    message += " (target \"\(name)\" declares: \(declared.isEmpty ? "none" : declared))"
                }
                throw fail(entryPath, message)
            }
        }
        return templates
    }

    func parseDeliverCommand(_ value: TOMLValue, at path: TOMLKeyPath) throws(ConfigError) -> [String] {
        let argv = try stringArray(value, at: path)
        guard let first = argv.first, !first.isEmpty else {
            throw fail(path, "deliver-command must be a non-empty argv array with a program first")
        }
        for (i, arg) in argv.enumerated() {
            var rest = Substring(arg)
            while let open = rest.firstIndex(of: "{") {
                guard let close = rest[open...].firstIndex(of: "}") else { break }
                let name = String(rest[rest.index(after: open)..<close])
                guard Self.commandPlaceholders.contains(name) else {
                    throw fail(path.appending(i), "unknown placeholder {\(name)} in \"\(arg)\" (use {target}, {invocation-id}, {source} or {parameters-json})")
                }
                rest = rest[rest.index(after: close)...]
            }
        }
        return argv
    }
}
