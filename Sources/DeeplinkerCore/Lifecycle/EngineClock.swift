/// The engine's only source of time, injected so the state machine stays pure and testable.
public protocol EngineClock: Sendable {
    /// The current wall-clock time in microseconds since the Unix epoch.
    func nowMicroseconds() -> Int64
}
