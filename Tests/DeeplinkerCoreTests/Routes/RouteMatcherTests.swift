import Testing
import DeeplinkerTestSupport
@testable import DeeplinkerCore

/// Structural matching and the match order (SPEC §5), and the trie agreeing with a linear scan.
struct RouteMatcherTests {
    func rule(_ index: Int, _ pattern: String, priority: Int = 0, exclude: Bool = false) throws -> RouteRule {
        RouteRule(index: index, pattern: try PathPattern(parsing: pattern), target: exclude ? nil : "t", priority: priority, exclude: exclude)
    }

    func winner(_ patterns: [(String, Int)], _ path: [String]) throws -> String? {
        let rules = try patterns.enumerated().map { try rule($0.offset, $0.element.0, priority: $0.element.1) }
        return RouteMatcher(routes: rules).match(path)?.rule.pattern.text
    }

    @Test func literalCaptureAndRest() throws {
        let m = RouteMatcher(routes: [try rule(0, "/recipe/:id"), try rule(1, "/files/*path"), try rule(2, "/")])
        #expect(m.match(["recipe", "12"])?.captures == ["id": "12"])
        #expect(m.match(["files", "a", "b/c"])?.captures == ["path": "a/b/c"])
        #expect(m.match(["files"]) == nil)  // *rest needs at least one segment
        #expect(m.match([])?.rule.pattern.text == "/")
        #expect(m.match(["recipe"]) == nil)
        #expect(m.match(["recipe", "1", "2"]) == nil)
    }

    @Test func higherPriorityFirst() throws {
        #expect(try winner([("/a/b", 0), ("/a/:x", 1)], ["a", "b"]) == "/a/:x")
    }

    @Test func moreLiteralsFirst() throws {
        #expect(try winner([("/a/:x", 0), ("/a/b", 0)], ["a", "b"]) == "/a/b")
        #expect(try winner([("/:x/b/:y", 0), ("/a/:x/:y", 0), ("/a/b/:y", 0)], ["a", "b", "c"]) == "/a/b/:y")
    }

    @Test func fewerCapturesFirst() throws {
        #expect(try winner([("/a/:x/:y", 0), ("/a/*rest", 0)], ["a", "b", "c"]) == "/a/*rest")
    }

    @Test func fileOrderLast() throws {
        #expect(try winner([("/:x/b", 0), ("/a/:y", 0)], ["a", "b"]) == "/:x/b")
        #expect(try winner([("/a/:y", 0), ("/:x/b", 0)], ["a", "b"]) == "/a/:y")
    }

    @Test func firstFittingRouteDecidesEvenWhenParametersFail() throws {
        let registry = try RoutingFixtures.registry("""
            schemes = ["x"]
            [targets]
            num = { n = "int" }
            text = { s = "string", a = "string?" }
            [[routes]]
            path = "/v/:n"
            target = "num"
            [[routes]]
            path = "/:a/:s"
            target = "text"
            """)
        let error = RoutingFixtures.error { () throws(DeeplinkerError) in try registry.resolveURL(appID: "com.example.Test", url: "x://v/abc") }
        #expect(error == .invalidParameter(name: "n", value: "abc", reason: "not a valid int"))
    }

    /// The trie returns exactly what a linear scan in match order returns, over random route sets.
    @Test func trieAgreesWithLinearScan() throws {
        var rng = SplitMix(seed: 42)
        let words = ["a", "b", "c"]
        for _ in 0..<200 {
            var rules: [RouteRule] = []
            var seen = Set<String>()
            for i in 0..<Int(rng.next() % 12 + 1) {
                let length = Int(rng.next() % 4)
                var segments: [String] = []
                for s in 0..<length {
                    switch rng.next() % 4 {
                    case 0: segments.append(":p\(s)")
                    case 1 where s == length - 1: segments.append("*r")
                    default: segments.append(words[Int(rng.next() % 3)])
                    }
                }
                let pattern = try PathPattern(parsing: "/" + segments.joined(separator: "/"))
                let priority = Int(rng.next() % 2)
                guard seen.insert("\(priority)\(pattern.shape)").inserted else { continue }
                rules.append(RouteRule(index: i, pattern: pattern, target: "t", priority: priority))
            }
            let matcher = RouteMatcher(routes: rules)
            let linear = rules.sorted { $0.precedes($1) }
            for _ in 0..<20 {
                let path = (0..<Int(rng.next() % 5)).map { _ in words[Int(rng.next() % 3)] }
                let expected = linear.first { $0.pattern.misfit(path) == nil }
                #expect(matcher.match(path)?.rule == expected, "\(rules.map(\.pattern.text)) \(path)")
            }
        }
    }
}
