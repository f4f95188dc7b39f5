import DBusKit
import DeeplinkerDaemon
import Synchronization

/// What telling callers apart costs (SPEC §3 "Callers"): the first call of each new connection
/// (the pid asked of the bus twice and the process read) against the later calls of the same
/// connection, which find the caller in the cache; the number of lookups made shows that only
/// first calls make one. Ping (answered by libdbus, no dispatch) is the floor of the same run.
enum CallerBenchmark {
    static func run(routeFile: String, options: BenchOptions, table: ResultTable) async throws {
        let lookups = Atomic<Int>(0)
        let env = try await BenchEnvironment.start(routeFile: routeFile, stateRoot: options.stateRoot) { pid in
            lookups.add(1, ordering: .relaxed)
            return CallerIdentityReader().lookup(pid: pid)
        }
        do {
            try await measure(env, lookups: lookups, options: options, table: table)
        } catch {
            await env.stop()
            throw error
        }
        await env.stop()
    }

    private static func measure(_ env: BenchEnvironment, lookups: borrowing Atomic<Int>, options: BenchOptions, table: ResultTable) async throws {
        let ping = try await Latency.series(count: options.pingCalls, warmup: options.warmup) { _ in
            try await env.client.ping(BenchEnvironment.daemonName, path: BenchEnvironment.daemonPath)
        }
        let before = lookups.load(ordering: .relaxed)
        let clock = ContinuousClock()
        var first: [Double] = []
        var later: [Double] = []
        for _ in 0..<options.callerConnections {
            let connection = try DBusConnection(address: env.bus.address)
            for call in 0...options.callsPerConnection {
                let start = clock.now
                _ = try await connection.call(
                    destination: BenchEnvironment.daemonName, path: BenchEnvironment.daemonPath,
                    interface: BenchEnvironment.daemonInterface, member: "GetAppState", arguments: [.string(BenchRouteFile.appID)])
                let micros = Stats.microseconds(start.duration(to: clock.now))
                if call == 0 { first.append(micros) } else { later.append(micros) }
            }
            connection.close()
        }
        let made = lookups.load(ordering: .relaxed) - before
        let (firstCalls, laterCalls) = (Stats(microseconds: first), Stats(microseconds: later))
        table.add("GetAppState, first call of a connection p50", Format.micros(firstCalls.p50), ratio: ratio(firstCalls.p50, ping.p50))
        table.add("GetAppState, later calls (cached caller) p50", Format.micros(laterCalls.p50), ratio: ratio(laterCalls.p50, ping.p50))
        table.add("GetAppState, later calls (cached caller) p99", Format.micros(laterCalls.p99), ratio: ratio(laterCalls.p99, ping.p99))
        table.add("caller lookup, first call minus later p50", Format.micros(firstCalls.p50 - laterCalls.p50))
        table.add(
            "caller lookups made", "\(made) for \(options.callerConnections) connections, \(later.count + first.count) calls",
            verdict: made == options.callerConnections ? "one per connection" : "expected \(options.callerConnections)")
        print("  callers: first call p50 \(Format.micros(firstCalls.p50)), later p50 \(Format.micros(laterCalls.p50)), Ping p50 \(Format.micros(ping.p50)), \(made) lookups")
    }

    private static func ratio(_ value: Double, _ base: Double) -> String {
        String(format: "%.2f× Ping", value / base)
    }
}
