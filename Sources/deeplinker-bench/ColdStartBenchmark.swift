import DBusKit
import Foundation

/// Cold start: a call to `org.deeplinker.Deeplinker1` while nobody owns it, so `dbus-daemon`
/// activates the release `deeplinkerd` from a service file, until the daemon's first reply
/// (`ListApps`). Each run gets a new bus; the state directory is kept between runs (a restart, the
/// common case), except for the first, which also creates the database. The daemon starts as
/// users start it (SPEC §9): no flags, its route file in `$XDG_CONFIG_HOME/deeplinker/apps` and its
/// state in `$XDG_STATE_HOME/deeplinker`, set in the bus's activation environment as a session
/// does. Goal ≤ 10 ms.
enum ColdStartBenchmark {
    static let goalMilliseconds = 10.0

    static func run(binary: String, routeFile: String, stateRoot: String?, runs: Int, table: ResultTable) async throws {
        print("  cold start: \(binary), \(runs) activations")
        let base = stateRoot.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        let root = base.appendingPathComponent("deeplinker-bench-cold-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let environment = try ExternalDaemonBenchmark.defaultStartEnvironment(root: root, routeFile: routeFile)
        let services = root.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        try "[D-BUS Service]\nName=\(BenchEnvironment.daemonName)\nExec=\(binary)\n"
            .write(to: services.appendingPathComponent("\(BenchEnvironment.daemonName).service"), atomically: true, encoding: .utf8)

        var samples: [Double] = []
        var cpuSamples: [Double] = []
        var first: Double?
        for index in 0...runs {
            let (milliseconds, cpu) = try await once(services: services.path, environment: environment)
            if index == 0 {
                first = milliseconds
            } else {
                samples.append(milliseconds * 1000)
                if let cpu { cpuSamples.append(cpu) }
            }
        }
        let stats = Stats(microseconds: samples)
        let p50 = stats.p50 / 1000
        table.add(
            "cold start, bus activation → first reply (ListApps) p50 / p99, \(runs) runs",
            String(format: "%.1f / %.1f ms", p50, stats.p99 / 1000), goal: String(format: "≤ %.0f ms", goalMilliseconds),
            verdict: Format.verdict(p50 <= goalMilliseconds))
        let cpu = Stats(microseconds: cpuSamples)
        table.add(
            "cold start, CPU of deeplinkerd's threads until the first reply, p50",
            String(format: "%.1f ms", cpu.p50 / 1000))
        if let first {
            table.add("cold start with a new state directory (creates the database)", String(format: "%.1f ms", first))
        }
        print(String(format: "  cold start: p50 %.1f ms, p99 %.1f ms (goal ≤ %.0f ms); CPU p50 %.1f ms", p50, stats.p99 / 1000, goalMilliseconds, cpu.p50 / 1000))
    }

    /// One activation on a new bus: the time from sending the call to its reply, in ms, and the
    /// CPU time the daemon's threads used by then, in µs.
    private static func once(services: String, environment: [String: String]) async throws -> (milliseconds: Double, cpu: Double?) {
        let bus = try PrivateBus(serviceDirectories: [services])
        defer { bus.stop() }
        let client = try DBusConnection(address: bus.address)
        defer { client.close() }
        _ = try await client.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "UpdateActivationEnvironment", arguments: [.stringDictionary(environment)])
        let start = ContinuousClock.now
        _ = try await client.call(
            destination: BenchEnvironment.daemonName, path: BenchEnvironment.daemonPath, interface: BenchEnvironment.daemonInterface,
            member: "ListApps", timeout: .seconds(20))
        let elapsed = Stats.microseconds(start.duration(to: .now)) / 1000
        // Stop this daemon and wait until it has let go of the database before the next run.
        if let owner = try await client.nameOwner(BenchEnvironment.daemonName),
            let pid = try await client.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetConnectionUnixProcessID", arguments: [.string(owner)]).first?.uint32Value
        {
            let cpu = ProcessCPU.threadRunTime(pid: Int32(pid)).map { $0 / 1000 }
            kill(pid_t(pid), SIGTERM)
            while kill(pid_t(pid), 0) == 0 { try await Task.sleep(for: .milliseconds(2)) }
            return (elapsed, cpu)
        }
        return (elapsed, nil)
    }
}
