/// How history is trimmed, the same for both stores: in batches, and fairly between apps.
///
/// Trimming on every commit deleted a row or two at the start of the table and each of its four
/// indexes, five more pages in every commit's WAL frames: 29 KB written per durable `OpenURL`
/// instead of 20.5 KB, and about 10% of the daemon's CPU per invocation (`deeplinker-bench cpu`,
/// which reads both from `/proc/PID/io` and `/proc/PID/stat`).
/// With a tenth of the limit as slack the deletes come in batches, on pages next to each other.
/// Limits under 10 get no slack, so small limits stay exact.
enum HistoryRetention {
    /// The count of retained invocations above which the oldest final ones are deleted, down to
    /// `limit`.
    static func trimThreshold(limit: Int) -> Int {
        limit + limit / 10
    }

    /// How many of each app's oldest final invocations to delete so that `excess` rows go, given
    /// each app's count of final (trimmable) invocations.
    ///
    /// The apps with the most history lose theirs first: every app above a common level is cut
    /// down to it (a few of them to one less, in order of count, then app id), and no app is cut
    /// below that level while another holds more. A flood for one app therefore never costs
    /// another app its newest 1,000 final invocations (nor any of them, while the flooding app
    /// holds more). When fewer than `excess` final invocations exist, all of them go.
    static func trimPlan(finalCounts: [String: Int], excess: Int) -> [String: Int] {
        guard excess > 0 else { return [:] }
        func removal(atLevel level: Int) -> Int {
            finalCounts.values.reduce(0) { $0 + max(0, $1 - level) }
        }
        // The lowest level whose cut removes no more than `excess` (removal falls as the level rises).
        var low = 0, high = finalCounts.values.max() ?? 0
        while low < high {
            let middle = (low + high) / 2
            if removal(atLevel: middle) <= excess { high = middle } else { low = middle + 1 }
        }
        let level = low
        var plan: [String: Int] = [:]
        for (app, count) in finalCounts where count > level { plan[app] = count - level }
        var remaining = excess - removal(atLevel: level)
        guard level > 0, remaining > 0 else { return plan }
        // Fewer than one more per app at the level: the apps with the most history give one each.
        let atLevel = finalCounts.filter { $0.value >= level }
            .sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        for (app, _) in atLevel where remaining > 0 {
            plan[app, default: 0] += 1
            remaining -= 1
        }
        return plan
    }
}
