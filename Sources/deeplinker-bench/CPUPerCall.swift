/// CPU time per call of the daemon and of the `dbus-daemon` that routes the same calls, from
/// `utime + stime` in `/proc/PID/stat` before and after `calls` calls from `callers` tasks.
struct CPUPerCall: Sendable {
    /// Per call, in microseconds.
    var daemon: ProcessCPU
    var bus: ProcessCPU
    var failures: Int
    /// deeplinkerd's bytes written and write calls per call (`/proc/PID/io`), when readable.
    var writtenBytes: Double?
    var writeCalls: Double?
    /// deeplinkerd's context switches per call (all live threads): its threads' wake-ups.
    var contextSwitches: Double?

    /// deeplinkerd's CPU per call over the dbus-daemon's.
    var ratio: Double { daemon.total / max(bus.total, 0.001) }

    /// "215 µs (110 user + 66 sys) / 60 µs".
    var summary: String {
        String(format: "%.0f µs (%.0f user + %.0f sys) / %.0f µs", daemon.total, daemon.user, daemon.system, bus.total)
            + (writtenBytes.map { String(format: "; writes %.0f B in %.1f calls", $0, writeCalls ?? 0) } ?? "")
            + (contextSwitches.map { String(format: "; %.1f context switches", $0) } ?? "")
            + (failures > 0 ? " (\(failures) failed)" : "")
    }

    static func measure(
        daemon: Int32, bus: Int32, calls: Int, callers: Int, _ operation: @escaping @Sendable () async throws -> Void
    ) async -> CPUPerCall? {
        // A short warm-up so lazily built state is not charged to the measured calls.
        _ = await Throughput.run(concurrency: callers, total: min(calls, 500)) { _ in try await operation() }
        let io0 = ProcessCPU.writes(pid: daemon)
        let switches0 = ProcessCPU.contextSwitches(pid: daemon)
        guard let daemon0 = ProcessCPU.read(pid: daemon), let bus0 = ProcessCPU.read(pid: bus) else { return nil }
        let result = await Throughput.run(concurrency: callers, total: calls) { _ in try await operation() }
        guard let daemon1 = ProcessCPU.read(pid: daemon), let bus1 = ProcessCPU.read(pid: bus) else { return nil }
        let io1 = ProcessCPU.writes(pid: daemon)
        let switches1 = ProcessCPU.contextSwitches(pid: daemon)
        let n = Double(calls)
        let d = daemon1.minus(daemon0)
        let b = bus1.minus(bus0)
        return CPUPerCall(
            daemon: ProcessCPU(user: d.user / n, system: d.system / n),
            bus: ProcessCPU(user: b.user / n, system: b.system / n), failures: result.failures,
            writtenBytes: io0.flatMap { a in io1.map { Double($0.bytes - a.bytes) / n } },
            writeCalls: io0.flatMap { a in io1.map { Double($0.calls - a.calls) / n } },
            contextSwitches: switches0.flatMap { a in switches1.map { Double($0 - a) / n } })
    }
}
