import DeeplinkerCore

extension RoutingBenchmark {
    /// ns per match of the trie and of the linear matcher at 10k routes, for the goal table of
    /// `engine` (the full sweep is `deeplinker-bench routing`).
    static func at10k() -> (trie: Double, linear: Double) {
        let rules = generateRules(10_000)
        let matcher = RouteMatcher(routes: rules)
        let linear = LinearMatcher(routes: rules)
        var rng = BenchRandom(seed: 10_000)
        let paths = (0..<1_000).map { _ in
            (try? ValidatedURL(sampleURL(for: rules[Int(rng.next() % UInt64(rules.count))], rng: &rng)))?.segments ?? []
        }
        var sink = 0
        let trie = measure(iterations: 400_000) { i in sink &+= matcher.bestRank(paths[i % paths.count]) ?? 0 }
        let slow = measure(iterations: 400) { i in sink &+= linear.match(paths[i % paths.count]) ?? 0 }
        if sink == 42 { print("") }
        return (trie, slow)
    }
}
