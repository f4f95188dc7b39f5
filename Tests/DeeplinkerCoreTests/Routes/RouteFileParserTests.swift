import Testing
@testable import DeeplinkerCore

/// Route files: every key of SPEC §5 with its default, and every validation naming file:line:column.
struct RouteFileParserTests {
    static let minimal = """
        [targets]
        home = {}
        """

    @Test func defaults() throws {
        let config = try RoutingFixtures.parse(Self.minimal)
        #expect(config.name == nil)
        #expect(config.schemes.isEmpty && config.domains.isEmpty)
        #expect(config.launch == .auto)
        #expect(config.raise)
        #expect(config.delivery == .activateAction)
        #expect(config.deliverCommand == nil)
        #expect(config.pendingTTL == .seconds(600))
        #expect(config.dedupeWindow == .seconds(2))
        #expect(config.deliveryTimeout == .seconds(5))
        #expect(config.maxAttempts == 3)
        #expect(config.lifecycleSenders == .owner)
        #expect(config.restoreLastRoute == false)
        #expect(config.fallbackTarget == nil)
        #expect(config.notifications == NotificationConfig())
        #expect(config.policy == AppPolicy(targetParameters: ["home": []]))
    }

    @Test(arguments: [("auto", LaunchMode.auto), ("dbus", .dbus), ("desktop", .desktop), ("none", .none)])
    func launchModes(text: String, mode: LaunchMode) throws {
        let config = try RoutingFixtures.parse("launch = \"\(text)\"\nraise = false\n" + Self.minimal)
        #expect(config.launch == mode)
        #expect(!config.raise && !config.policy.raise)
    }

    @Test(arguments: [("signal", Readiness.signal), ("name", .name), ("focus", .focus)])
    func readinessModes(text: String, ready: Readiness) throws {
        let config = try RoutingFixtures.parse("ready = \"\(text)\"\n" + Self.minimal)
        #expect(config.ready == ready)
        #expect(config.policy.ready == ready)
    }

    @Test func readinessDefaultsToSignal() throws {
        #expect(try RoutingFixtures.parse(Self.minimal).policy.ready == .signal)
    }

    @Test func everyKey() throws {
        let config = try RoutingFixtures.parse("""
            name = "Demo"
            schemes = ["Demo", "demo-2"]
            domains = ["demo.example", "*.Demo.example", "bücher.example"]
            launch = ["demo-app", "--gapplication-service"]
            delivery = "exec"
            deliver-command = ["demo", "--route", "{target}", "{invocation-id}", "{source}", "{parameters-json}"]
            pending-ttl = "0"
            dedupe-window = "500ms"
            delivery-timeout = "1h30m"
            max-attempts = 5
            lifecycle-senders = "any"
            restore-last-route = true
            fallback-target = "web"

            [targets]
            web = { url = "string" }
            item = { id = "uuid", flag = "bool?" }

            [[routes]]
            path = "/item/:id/"
            target = "item"
            params = { flag = 1 }
            priority = 2

            [[routes]]
            path = "/private/*rest"
            exclude = true

            [notifications]
            target-key = "kind"
            url-key = "link"
            id-key = "meta.id"

            [[notifications.rules]]
            when = "data.item"
            equals = "yes"
            target = "item"
            params-from = { id = "data.item" }
            params = { flag = false }

            [[shortcuts]]
            type = "demo.web"
            title = "Web"
            icon = "web-browser"
            target = "web"
            params = { url = "https://demo.example" }
            """)
        #expect(config.name == "Demo")
        #expect(config.schemes == ["demo", "demo-2"])
        #expect(config.domains.map(\.description) == ["demo.example", "*.demo.example", "xn--bcher-kva.example"])
        #expect(config.launch == .command(["demo-app", "--gapplication-service"]))
        #expect(config.delivery == .exec)
        #expect(config.deliverCommand?.count == 6)
        #expect(config.pendingTTL == nil)
        #expect(config.dedupeWindow == .milliseconds(500))
        #expect(config.deliveryTimeout == .seconds(5400))
        #expect(config.maxAttempts == 5)
        #expect(config.lifecycleSenders == .any)
        #expect(config.restoreLastRoute)
        #expect(config.fallbackTarget == "web")
        #expect(config.targets["item"]?.parameters == ["id": .init(type: .uuid), "flag": .init(type: .bool, optional: true)])
        #expect(config.routes.count == 2)
        #expect(config.routes[0].pattern.text == "/item/:id")
        #expect(config.routes[0].params == ["flag": "true"])
        #expect(config.routes[0].priority == 2)
        #expect(config.routes[1].exclude && config.routes[1].target == nil)
        #expect(config.notifications.targetKey == "kind")
        #expect(config.notifications.urlKey == "link")
        #expect(config.notifications.idKey == "meta.id")
        #expect(config.notifications.rules == [NotificationRule(when: "data.item", equals: "yes", target: "item", paramsFrom: ["id": "data.item"], params: ["flag": "false"])])
        #expect(config.shortcuts == [ShortcutConfig(type: "demo.web", title: "Web", icon: "web-browser", target: "web", params: ["url": "https://demo.example"])])
        #expect(config.policy.delivery == .exec(command: config.deliverCommand!))
    }

    @Test func tableHeaderFormsAreEquivalent() throws {
        let config = try RoutingFixtures.parse("""
            [targets.recipe]
            id = "int"

            [targets."messages.details"]
            id = "string"
            """)
        #expect(config.targets.keys.sorted() == ["messages.details", "recipe"])
    }

    /// Each case: file text, expected "line:column", and a fragment of the message.
    @Test(arguments: [
        ("colour = 1", "1:1", "unknown key \"colour\""),
        ("[targets]\nhome = {}\n[[routes]]\npath = \"/\"\ntarget = \"home\"\nmethod = \"GET\"", "6:1", "routes[0].method: unknown key \"method\""),
        ("[targets]\nhome = { id = \"int\" }\n[[shortcuts]]\ntype = \"a\"\ntitle = \"A\"\ntarget = \"home\"\nparams = { id = 1, x = 2 }", "7:20", "parameter \"x\" is not declared"),
        ("pending-ttl = \"10 min\"", "1:15", "invalid duration \"10 min\""),
        ("dedupe-window = 2", "1:17", "expected a string, found 2"),
        ("delivery-timeout = \"0\"", "1:20", "must be longer than 0"),
        ("max-attempts = 0", "1:16", "between 1 and 100"),
        ("max-attempts = \"3\"", "1:16", "expected an integer, found \"3\""),
        ("delivery = \"push\"", "1:12", "invalid value \"push\""),
        ("lifecycle-senders = \"everyone\"", "1:21", "invalid value \"everyone\""),
        ("restore-last-route = \"yes\"", "1:22", "expected true or false"),
        ("launch = \"systemd\"", "1:10", "invalid launch \"systemd\""),
        ("launch = []", "1:10", "non-empty argv"),
        ("raise = \"no\"", "1:9", "expected true or false"),
        ("ready = \"window\"", "1:9", "invalid value \"window\" (expected one of \"signal\", \"name\", \"focus\")"),
        ("ready = true", "1:9", "expected a string, found true"),
        ("name = \"A\"\nready = \"Name\"", "2:9", "invalid value \"Name\""),
        ("delivery = \"exec\"", "1:12", "needs a deliver-command"),
        ("deliver-command = [\"x\"]", "1:19", "only used with delivery = \"exec\""),
        ("delivery = \"exec\"\ndeliver-command = [\"x\", \"{route}\"]", "2:25", "unknown placeholder {route}"),
        ("schemes = [\"https\"]", "1:12", "not a custom scheme"),
        ("schemes = [\"1abc\"]", "1:12", "invalid URL scheme \"1abc\""),
        ("schemes = [\"a\", \"A\"]", "1:17", "listed twice"),
        ("schemes = \"a\"", "1:11", "expected an array"),
        ("domains = [\"exa mple.com\"]", "1:12", "invalid domain \"exa mple.com\""),
        ("domains = [\"*.\"]", "1:12", "invalid domain"),
        ("[targets]\n\"bad name\" = {}", "2:1", "invalid target name \"bad name\""),
        ("[targets]\nrecipe = { id = \"integer\" }", "2:17", "invalid parameter type \"integer\""),
        ("[targets]\nrecipe = { id = 5 }", "2:17", "expected a string, found 5"),
        ("[targets]\nmessages.details = { id = \"string\" }", "2:10", "quote it: \"messages.details\""),
        ("[targets]\nrecipe = \"int\"", "2:10", "expected a table"),
        ("[targets]\nweb = {}\n", "1:1", ""),
        ("fallback-target = \"web\"\n[targets]\nweb = {}", "1:19", "must declare a parameter url"),
        ("fallback-target = \"nowhere\"", "1:19", "undeclared target \"nowhere\""),
        ("[targets]\nhome = {}\n[[routes]]\npath = \"/a\"\ntarget = \"homes\"", "5:10", "undeclared target \"homes\""),
        ("[targets]\nhome = {}\n[[routes]]\npath = \"a\"\ntarget = \"home\"", "4:8", "invalid path pattern \"a\": must start with '/'"),
        ("[targets]\nhome = {}\n[[routes]]\npath = \"/*rest/a\"\ntarget = \"home\"", "4:8", "must be the last segment"),
        ("[targets]\nhome = {}\n[[routes]]\npath = \"/a//b\"\ntarget = \"home\"", "4:8", "empty segment"),
        ("[targets]\nhome = {}\n[[routes]]\npath = \"/a/:id\"\ntarget = \"home\"", "4:8", "capture \"id\" in \"/a/:id\" is not a parameter"),
        ("[targets]\nhome = {}\n[[routes]]\npath = \"/a/:\"\ntarget = \"home\"", "4:8", "invalid capture name"),
        ("[targets]\nhome = {}\n[[routes]]\npath = \"/a?b\"\ntarget = \"home\"", "4:8", "invalid character"),
        ("[targets]\nhome = {}\n[[routes]]\ntarget = \"home\"", "3:1", "missing key \"path\""),
        ("[targets]\nhome = {}\n[[routes]]\npath = \"/a\"", "3:1", "missing key \"target\""),
        ("[targets]\nhome = {}\n[[routes]]\npath = \"/a\"\nexclude = true\ntarget = \"home\"", "6:1", "exclude route takes no target"),
        ("[targets]\nhome = {}\n[[routes]]\npath = \"/a\"\ntarget = \"home\"\npriority = \"high\"", "6:12", "expected an integer"),
        ("[targets]\nr = { id = \"int\" }\n[[routes]]\npath = \"/a/:id\"\ntarget = \"r\"\nparams = { id = 1 }", "6:12", "both captured by the path and fixed"),
        ("[targets]\nr = { id = \"int\" }\n[[routes]]\npath = \"/a\"\ntarget = \"r\"\nparams = { id = \"x\" }", "6:17", "\"x\" is not a valid int"),
        ("[targets]\nr = { id = \"int\", n = \"int\" }\n[[routes]]\npath = \"/r/:id\"\ntarget = \"r\"\n[[routes]]\npath = \"/r/:n/\"\ntarget = \"r\"", "7:8", "duplicate pattern \"/r/:n/\" with priority 0: routes[0] (line 4)"),
        ("[notifications]\ntarget = \"x\"", "2:1", "unknown key \"target\""),
        ("[notifications]\ntarget-key = \"a..b\"", "2:14", "invalid payload path \"a..b\""),
        ("[targets]\nhome = {}\n[[notifications.rules]]\nwhen = \"a\"\ntarget = \"nope\"", "5:10", "undeclared target \"nope\""),
        ("[targets]\nhome = {}\n[[notifications.rules]]\ntarget = \"home\"", "3:1", "missing key \"when\""),
        ("[targets]\nhome = {}\n[[notifications.rules]]\nwhen = \"a\"\ntarget = \"home\"\nparams-from = { id = \"a\" }", "6:17", "parameter \"id\" is not declared"),
        ("[targets]\nr = { id = \"int\" }\n[[notifications.rules]]\nwhen = \"a\"\ntarget = \"r\"\nparams-from = { id = \"a\" }\nparams = { id = 1 }", "7:12", "in both params-from and params"),
        ("[targets]\nhome = {}\n[[notifications.rules]]\nwhen = \"a\"\ntarget = \"home\"\nequals = [1]", "6:10", "expected a string, integer or boolean"),
        ("[targets]\nhome = {}\n[[shortcuts]]\ntype = \"a\"\ntitle = \"A\"\ntarget = \"home\"\n[[shortcuts]]\ntype = \"a\"\ntitle = \"B\"\ntarget = \"home\"", "8:8", "configured twice"),
        ("[targets]\nhome = {}\n[[shortcuts]]\ntype = \"a\"\ntarget = \"home\"", "3:1", "missing key \"title\""),
        ("[targets]\nhome = {}\n[[shortcuts]]\ntype = \"a\\nb\"\ntitle = \"A\"\ntarget = \"home\"", "4:8", "contains a control character"),
        ("[targets]\nr = { id = \"int\" }\n[[shortcuts]]\ntype = \"a\"\ntitle = \"A\"\ntarget = \"r\"", "6:10", "leaves required parameter \"id\""),
        ("[targets]\nhome = {}\n[[shortcuts]]\ntype = \"a\"\ntitle = \"A\"\ntarget = \"home\"\ncolor = \"red\"", "7:1", "shortcuts[0].color: unknown key \"color\""),
        ("routes = 5", "1:10", "expected an array"),
        ("name = \"x\"\nname = \"y\"", "2:8", "TOML syntax error: key name is defined twice (first at line 1, column 1)"),
        ("schemes = [\"a\"\n", "1:11", "TOML syntax error: unclosed array: the file ends before its ']'"),
        ("a = \"\u{0}\"", "1:1", "NUL"),
    ] as [(String, String, String)])
    func validationErrors(text: String, location: String, fragment: String) {
        if fragment.isEmpty {
            #expect(throws: Never.self) { try RoutingFixtures.parse(text) }
            return
        }
        guard let error = RoutingFixtures.configError(text) else { return }
        #expect("\(error.line):\(error.column)" == location, "\(error)")
        #expect(error.message.contains(fragment), "\(error)")
        #expect(error.file == "test.toml")
        #expect(error.description.hasPrefix("test.toml:\(location): "))
    }

    @Test func samePatternDifferentPriorityIsFine() throws {
        let config = try RoutingFixtures.parse("[targets]\nr = { id = \"int\" }\n[[routes]]\npath = \"/r/:id\"\ntarget = \"r\"\n[[routes]]\npath = \"/r/:id\"\ntarget = \"r\"\npriority = 1")
        #expect(config.routes.count == 2)
    }

    @Test func reportsTheFirstProblemInFileOrder() {
        // Keys are checked in the order they are written, so the error is the first one written.
        let error = RoutingFixtures.configError("zeta = 1\nalpha = 2")
        #expect(error?.description == "test.toml:1:1: zeta: unknown key \"zeta\" (expected one of: dedupe-window, deliver-command, delivery, delivery-timeout, domains, fallback-target, launch, lifecycle-senders, max-attempts, name, notifications, open, pending-ttl, raise, ready, restore-last-route, routes, schemes, shortcuts, targets)")
    }

    @Test func atMost64ParametersPerTarget() {
        let params = (0..<65).map { "p\($0) = \"string?\"" }.joined(separator: "\n")
        let error = RoutingFixtures.configError("[targets.big]\n" + params)
        #expect(error?.message.contains("at most 64") == true)
    }

    @Test func configErrorMapsToInvalidConfig() {
        let error = ConfigError(file: "a.toml", line: 2, column: 3, message: "bad")
        #expect(error.description == "a.toml:2:3: bad")
        #expect(error.deeplinkerError.name == "InvalidConfig")
        #expect(error.deeplinkerError.message.contains("a.toml:2:3: bad"))
    }
}
