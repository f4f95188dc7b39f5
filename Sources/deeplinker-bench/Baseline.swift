/// The denominators of every ratio: `Peer.Ping` to the daemon, measured in the same run.
struct Baseline: Sendable {
    /// Sequential Ping round trip.
    var ping: Stats
    /// Ping calls per second with 64 in flight.
    var pipelined: Double
}
