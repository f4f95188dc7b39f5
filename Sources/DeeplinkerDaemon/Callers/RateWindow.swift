/// The invocations a sandboxed connection made in the last second (SPEC §3: at most 100 in any
/// one second). A sliding window rather than a token bucket: a bucket of 100 refilled at 100/s
/// lets 199 through in one second after an idle spell, and the limit is a promise per second.
struct RateWindow: Sendable {
    static let limit = 100
    static let span: Int64 = 1_000_000

    /// The times (µs) of the last `limit` admitted invocations, oldest at `next` once full.
    private var times: [Int64] = []
    private var next = 0

    /// Whether `limit` invocations were ever admitted (until then every one is).
    var isFull: Bool { times.count >= Self.limit }

    /// Admits an invocation at `now` if fewer than `limit` were admitted in the second before it.
    mutating func admit(at now: Int64) -> Bool {
        if times.count < Self.limit {
            times.append(now)
            return true
        }
        guard now - times[next] >= Self.span else { return false }
        times[next] = now
        next = (next + 1) % Self.limit
        return true
    }
}
