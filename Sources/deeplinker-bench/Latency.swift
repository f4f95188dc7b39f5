/// Sequential latency series: `warmup` unmeasured calls, then `count` timed ones.
enum Latency {
    /// Times each of `count` calls of `operation` (after `warmup` untimed ones), one after another.
    static func series(
        count: Int, warmup: Int, _ operation: (Int) async throws -> Void
    ) async throws -> Stats {
        for i in 0..<warmup { try await operation(i) }
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for i in 0..<count {
            let start = clock.now
            try await operation(warmup + i)
            samples.append(Stats.microseconds(start.duration(to: clock.now)))
        }
        return Stats(microseconds: samples)
    }
}
