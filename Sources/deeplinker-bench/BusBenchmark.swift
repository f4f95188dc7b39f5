import DBusKit

/// The baseline: `org.freedesktop.DBus.Peer.Ping` to the daemon's well-known name through
/// DBusKit, sequential round trip and throughput with 64 calls in flight. libdbus answers Ping
/// inside the daemon's dispatch, so this is the cost of the bus and the binding alone.
enum BusBenchmark {
    static func run(
        client: DBusConnection, destination: String, path: String, options: BenchOptions, table: ResultTable, label: String = ""
    ) async throws -> Baseline {
        let ping = try await Latency.series(count: options.pingCalls, warmup: options.warmup) { _ in
            try await client.ping(destination, path: path)
        }
        table.add("Ping round trip p50\(label)", Format.micros(ping.p50), ratio: "1.00×")
        table.add("Ping round trip p99\(label)", Format.micros(ping.p99), ratio: "1.00×")
        let pipelined = await Throughput.run(concurrency: 64, total: options.pipelinedCalls) { _ in
            try await client.ping(destination, path: path)
        }
        table.add(
            "Ping throughput, 64 in flight\(label)", Format.rate(pipelined.callsPerSecond), ratio: "100%",
            verdict: pipelined.failures == 0 ? "" : "\(pipelined.failures) failed")
        print("  baseline\(label): Ping p50 \(Format.micros(ping.p50)), p99 \(Format.micros(ping.p99)), 64 in flight \(Format.rate(pipelined.callsPerSecond))")
        return Baseline(ping: ping, pipelined: pipelined.callsPerSecond)
    }
}
