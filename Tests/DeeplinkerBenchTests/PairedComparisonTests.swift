@testable import deeplinker_bench
import Testing

/// The statistics of `deeplinker-bench e2e`: percentiles of each path, the ratio of the medians,
/// and the per-pair ratios and differences of samples measured in alternation.
@Suite struct PairedComparisonTests {
    @Test func ratiosAndDifferencesOfPairs() {
        // Pairs (subject, baseline): (12, 10) (30, 10) (11, 10) (22, 20) (9, 10)
        let c = PairedComparison(subject: [12, 30, 11, 22, 9], baseline: [10, 10, 10, 20, 10])
        #expect(c.subject.p50 == 12)
        #expect(c.baseline.p50 == 10)
        #expect(c.subject.p99 == 30)
        #expect(c.ratioOfMedians == 1.2)
        #expect(c.ratioOfP99 == 1.5)
        // Per pair: 1.2, 3.0, 1.1, 1.1, 0.9 → median 1.1; differences 2, 20, 1, 2, -1 → median 2.
        #expect(abs(c.medianPairRatio - 1.1) < 1e-12)
        #expect(c.medianPairDifference == 2)
        #expect(c.pairRatios.count == 5)
    }

    /// A slow stretch that hits both paths of a pair moves their medians but not their ratio.
    @Test func pairRatiosIgnoreLoadSharedByAPair() {
        let c = PairedComparison(subject: [11, 11, 110, 110, 11], baseline: [10, 10, 100, 100, 10])
        #expect(abs(c.medianPairRatio - 1.1) < 1e-12)
        #expect(abs(c.ratioOfMedians - 1.1) < 1e-12)
    }

    @Test func unevenAndEmptySeries() {
        let uneven = PairedComparison(subject: [5, 6, 7], baseline: [5])
        #expect(uneven.pairRatios.count == 1)
        #expect(uneven.subject.count == 3)
        let empty = PairedComparison(subject: [], baseline: [])
        #expect(empty.ratioOfMedians == 0)
        #expect(empty.medianPairRatio == 0)
        // A zero baseline gives no ratio rather than infinity.
        #expect(PairedComparison(subject: [3], baseline: [0]).pairRatios.count == 0)
    }

    @Test func pairOrderAlternates() {
        #expect((0..<4).map(PairedComparison.subjectFirst) == [true, false, true, false])
    }

    @Test func nearestRankPercentiles() {
        let s = Stats(microseconds: Array(stride(from: 100.0, through: 1.0, by: -1)))
        #expect(s.p50 == 50)
        #expect(s.p99 == 99)
        #expect(s.percentile(100) == 100)
        #expect(Stats(microseconds: []).p50 == 0)
    }
}
