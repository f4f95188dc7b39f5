/// How far history may grow past its limit before it is trimmed back to the limit, for both stores.
///
/// Trimming on every commit deleted a row or two at the start of the table and each of its four
/// indexes, five more pages in every commit's WAL frames: 29 KB written per durable `OpenURL`
/// instead of 20.5 KB, and about 10% of the daemon's CPU per invocation (README, "Performance").
/// With a tenth of the limit as slack the deletes come in batches, on pages next to each other.
/// Limits under 10 get no slack, so small limits stay exact.
enum HistoryRetention {
    /// The count of retained invocations above which the oldest final ones are deleted, down to
    /// `limit`.
    static func trimThreshold(limit: Int) -> Int {
        limit + limit / 10
    }
}
