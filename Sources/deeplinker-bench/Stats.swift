/// Latency samples in microseconds, summarised by nearest-rank percentiles.
struct Stats: Sendable {
    /// The samples, sorted ascending.
    let sorted: [Double]

    /// Builds the summary from unsorted samples (µs).
    init(microseconds samples: [Double]) {
        sorted = samples.sorted()
    }

    /// Builds the summary from durations.
    init(durations: [Duration]) {
        self.init(microseconds: durations.map(Stats.microseconds))
    }

    /// Number of samples.
    var count: Int { sorted.count }

    /// The `p`-th percentile (0...100), nearest rank; 0 when there are no samples.
    func percentile(_ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// Median.
    var p50: Double { percentile(50) }
    /// 99th percentile.
    var p99: Double { percentile(99) }
    /// Arithmetic mean.
    var mean: Double { sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count) }

    /// A duration in microseconds.
    static func microseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
    }

    /// A duration in seconds.
    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}
