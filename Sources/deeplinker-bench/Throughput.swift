import Synchronization

/// Runs `total` operations from `concurrency` tasks, each awaiting its own calls one after another,
/// so exactly `concurrency` calls are in flight; returns calls per second and the failures.
enum Throughput {
    /// The outcome of one run.
    struct Result: Sendable {
        var callsPerSecond: Double
        var failures: Int
        var firstError: String?
    }

    static func run(
        concurrency: Int, total: Int, _ operation: @escaping @Sendable (Int) async throws -> Void
    ) async -> Result {
        let counter = SharedCounter()
        let clock = ContinuousClock()
        let start = clock.now
        let outcomes = await withTaskGroup(of: (Int, String?).self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var failures = 0
                    var first: String?
                    while true {
                        let index = counter.next()
                        guard index < total else { break }
                        do {
                            try await operation(index)
                        } catch {
                            failures += 1
                            if first == nil { first = "\(error)" }
                        }
                    }
                    return (failures, first)
                }
            }
            var collected: [(Int, String?)] = []
            for await outcome in group { collected.append(outcome) }
            return collected
        }
        let elapsed = Stats.seconds(start.duration(to: clock.now))
        return Result(
            callsPerSecond: Double(total) / elapsed,
            failures: outcomes.reduce(0) { $0 + $1.0 },
            firstError: outcomes.compactMap(\.1).first)
    }
}
