import DeeplinkerCore

/// `deeplinker-bench routing`: ns per match for the segment-trie matcher beside a linear
/// matcher (``LinearMatcher``) at 10, 1k, 10k and 100k generated routes, and the time to parse 1,000
/// route files from text and of the example route files. Goals: ≤ 1 µs per match at 10k routes, ≥ 50× faster than linear there,
/// ≤ 2× slower from 10 to 100k routes.
enum RoutingBenchmark {
    static func run() {
        print("Routing benchmark (ns per match; URLs pre-validated unless noted)")
        print(pad("routes", 8), pad("trie", 10), pad("full", 10), pad("linear", 12), pad("linear/trie", 12))
        var trieAt: [Int: Double] = [:]
        for count in [10, 1_000, 10_000, 100_000] {
            let rules = generateRules(count)
            let matcher = RouteMatcher(routes: rules)
            let linear = LinearMatcher(routes: rules)
            var config = AppConfig(appID: "com.example.Bench")
            config.schemes = ["bench"]
            config.targets = benchTargets
            config.routes = rules
            config.matcher = matcher
            var rng = BenchRandom(seed: UInt64(count))
            let urls = (0..<1_000).map { _ in sampleURL(for: rules[Int(rng.next() % UInt64(rules.count))], rng: &rng) }
            let paths = urls.map { (try? ValidatedURL($0))?.segments ?? [] }

            // Agreement check, so both matchers are doing the same work.
            for path in paths where matcher.bestRank(path).map({ matcher.order[$0] }) != linear.match(path) {
                print("MISMATCH for \(path)")
            }

            var sink = 0
            let trieNS = measure(iterations: 400_000) { i in sink &+= matcher.bestRank(paths[i % paths.count]) ?? 0 }
            let fullNS = measure(iterations: 100_000) { i in
                sink &+= ((try? config.resolve(ValidatedURL(urls[i % urls.count]), source: .url))?.route.parameters.count ?? 0)
            }
            let linearIterations = max(200, 2_000_000 / count)
            let linearNS = measure(iterations: linearIterations) { i in sink &+= linear.match(paths[i % paths.count]) ?? 0 }
            trieAt[count] = trieNS
            print(pad("\(count)", 8), pad(format(trieNS), 10), pad(format(fullNS), 10), pad(format(linearNS), 12), pad(format(linearNS / trieNS) + "×", 12))
            if sink == 42 { print("") }
        }
        if let small = trieAt[10], let large = trieAt[100_000] {
            print("trie cost 100k / 10 routes: \(format(large / small))×")
        }

        let files = (0..<1_000).map { routeFileText(index: $0) }
        let clock = ContinuousClock()
        var parsed = 0
        let elapsed = clock.measure {
            for (i, text) in files.enumerated() {
                if (try? RouteFileParser.parse(text, appID: "com.example.App\(i)", file: "f\(i).toml")) != nil { parsed += 1 }
            }
        }
        let ms = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
        print("load 1,000 route files (\(files.first!.utf8.count) bytes, 20 routes each, from text): \(format(ms)) ms total, \(format(ms * 1000 / 1000)) µs per file, \(parsed) parsed")
        runExampleFiles()
    }

    static let benchTargets: [String: TargetSchema] = [
        "list": TargetSchema(name: "list", parameters: ["page": .init(type: .int, optional: true)]),
        "item": TargetSchema(name: "item", parameters: ["id": .init(type: .int), "tab": .init(type: .string, optional: true)]),
        "user": TargetSchema(name: "user", parameters: ["uid": .init(type: .string)]),
        "files": TargetSchema(name: "files", parameters: ["path": .init(type: .string)]),
    ]

    /// Realistic route shapes: per-section lists, items by id, sub-resources, users and wildcards.
    static func generateRules(_ count: Int) -> [RouteRule] {
        (0..<count).map { i in
            let section = "section\(i / 5)"
            let (pattern, target): (String, String) = switch i % 5 {
            case 0: ("/\(section)", "list")
            case 1: ("/\(section)/item/:id", "item")
            case 2: ("/\(section)/item/:id/reviews", "item")
            case 3: ("/users/:uid/\(section)", "user")
            default: ("/\(section)/files/*path", "files")
            }
            return RouteRule(index: i, pattern: try! PathPattern(parsing: pattern), target: target)
        }
    }

    static func sampleURL(for rule: RouteRule, rng: inout BenchRandom) -> String {
        var parts: [String] = []
        for segment in rule.pattern.segments {
            switch segment {
            case .literal(let s): parts.append(s)
            case .capture(let name): parts.append(name == "id" ? "\(rng.next() % 100_000)" : "u\(rng.next() % 1000)")
            case .rest: parts.append("docs/report-\(rng.next() % 100).pdf")
            }
        }
        return "bench://" + parts.joined(separator: "/") + "?page=2&tab=reviews"
    }

    static func routeFileText(index: Int) -> String {
        var text = """
            name = "App \(index)"
            schemes = ["app\(index)"]
            domains = ["app\(index).example", "*.app\(index).example"]
            pending-ttl = "10m"
            dedupe-window = "2s"

            [targets]
            home = {}
            list = { page = "int?", sort = "string?" }
            item = { id = "int", tab = "string?" }
            "item.edit" = { id = "int" }
            files = { path = "string" }

            [notifications]
            target-key = "type"
            url-key = "link"

            [[notifications.rules]]
            when = "data.itemId"
            target = "item"
            params-from = { id = "data.itemId" }

            [[shortcuts]]
            type = "com.example.App\(index).home"
            title = "Home"
            target = "home"

            """
        for r in 0..<20 {
            let (path, target) = switch r % 4 {
            case 0: ("/s\(r)", "list")
            case 1: ("/s\(r)/:id", "item")
            case 2: ("/s\(r)/:id/edit", "item.edit")
            default: ("/s\(r)/files/*path", "files")
            }
            text += "[[routes]]\npath = \"\(path)\"\ntarget = \"\(target)\"\n\n"
        }
        return text
    }

    static func measure(iterations: Int, _ body: (Int) -> Void) -> Double {
        for i in 0..<min(iterations, 1000) { body(i) }  // warm up
        let clock = ContinuousClock()
        let elapsed = clock.measure { for i in 0..<iterations { body(i) } }
        let ns = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        return ns / Double(iterations)
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return value >= 100 ? String(Int(value.rounded())) : String(rounded)
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
}
