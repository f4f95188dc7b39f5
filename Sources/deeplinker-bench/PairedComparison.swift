/// Two latency series measured in alternation (subject, baseline, baseline, subject, …): each pair
/// ran under nearly the same load, so on a machine shared with other work their ratio is fair
/// where two series measured one after the other would not be.
struct PairedComparison: Sendable {
    /// The path being judged (through Deeplinker) and the one it is judged against (direct).
    let subject: Stats
    let baseline: Stats
    /// `subject[i] / baseline[i]` for each pair.
    let pairRatios: Stats
    /// `subject[i] − baseline[i]` for each pair, in the samples' unit.
    let pairDifferences: Stats

    /// `subject` and `baseline` in the order they were measured; pairs are taken index by index
    /// (extra samples of the longer series count in its percentiles, not in the pairs).
    init(subject: [Double], baseline: [Double]) {
        self.subject = Stats(microseconds: subject)
        self.baseline = Stats(microseconds: baseline)
        let pairs = Array(zip(subject, baseline))
        pairRatios = Stats(microseconds: pairs.compactMap { s, b in b > 0 ? s / b : nil })
        pairDifferences = Stats(microseconds: pairs.map { s, b in s - b })
    }

    /// The subject's median over the baseline's (the goal's measure); 0 without a baseline.
    var ratioOfMedians: Double { baseline.p50 > 0 ? subject.p50 / baseline.p50 : 0 }
    /// The same at the 99th percentile.
    var ratioOfP99: Double { baseline.p99 > 0 ? subject.p99 / baseline.p99 : 0 }
    /// The median of the per-pair ratios: insensitive to load that changes slowly over the run.
    var medianPairRatio: Double { pairRatios.p50 }
    /// The median of the per-pair differences: what the subject costs on top, per link.
    var medianPairDifference: Double { pairDifferences.p50 }

    /// Whether pair `index` runs the subject first: the order alternates in pairs of pairs
    /// (AB BA AB BA …), so neither path always runs right after the other's settle time.
    static func subjectFirst(_ index: Int) -> Bool { index % 2 == 0 }
}
