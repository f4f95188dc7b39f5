import DBusKit
import Foundation

/// The engine benchmark, run right after the baseline against the same in-process daemon:
/// durable `OpenURL` round trip, delivery latency to an active stand-in app, throughput with 1, 8
/// and 64 callers, and resident memory after `rssInvocations` invocations.
enum EngineBenchmark {
    /// Distinct recipe ids, so that no two invocations are alike.
    static let ids = SharedCounter(startingAt: 1)

    static func nextURL() -> String {
        "https://bestrecipes.com/recipe?id=\(ids.next())"
    }

    static func run(_ env: BenchEnvironment, baseline: Baseline, options: BenchOptions, table: ResultTable) async throws {
        let pingP50 = baseline.ping.p50
        let pingP99 = baseline.ping.p99
        var invocations = 0
        let transactionsAtStart = env.transactionCount ?? 0
        let memoryAtStart = ProcessMemory.read()

        // 0. The disk's fsync latency, the floor of a durable reply.
        if let fsync = FsyncProbe.measure(in: env.stateDirectory, count: max(50, options.openURLCalls / 10)) {
            table.add("fsync of a 4 KiB write in the state dir p50 (reference)", Format.micros(fsync.p50), ratio: Format.ratio(fsync.p50 / pingP50))
            table.add("fsync p99 (reference)", Format.micros(fsync.p99), ratio: Format.ratio(fsync.p99 / pingP99))
            table.goal("(reference) fsync p50, the floor under a durable reply", String(format: "%.2f× Ping (%@)", fsync.p50 / pingP50, Format.micros(fsync.p50)), met: nil, from: "state directory")
            print("  fsync in the state directory: p50 \(Format.micros(fsync.p50)), p99 \(Format.micros(fsync.p99))")
        }

        // 1. Durable OpenURL round trip; the app is not running, so the route is stored as pending.
        let roundTrip = try await Latency.series(count: options.openURLCalls, warmup: options.warmup / 4) { _ in
            try await env.openURL(nextURL())
        }
        invocations += options.openURLCalls + options.warmup / 4
        let rtRatio = roundTrip.p50 / pingP50
        table.add("OpenURL round trip p50 (durable, app not running)", Format.micros(roundTrip.p50),
                  ratio: Format.ratio(rtRatio), goal: "≤ 3×", verdict: Format.verdict(rtRatio <= 3))
        table.goal("durable OpenURL p50 ≤ 3× Ping", String(format: "%.2f× (%@)", rtRatio, Format.micros(roundTrip.p50)), met: rtRatio <= 3, from: "daemon in-process")
        table.add("OpenURL round trip p99", Format.micros(roundTrip.p99), ratio: Format.ratio(roundTrip.p99 / pingP99))
        print("  OpenURL round trip: p50 \(Format.micros(roundTrip.p50)), p99 \(Format.micros(roundTrip.p99))")

        // 2. Throughput with 1, 8 and 64 concurrent callers.
        for concurrency in [1, 8, 64] {
            let total = options.throughputCalls[concurrency] ?? 10_000
            let before = env.transactionCount
            let result = await Throughput.run(concurrency: concurrency, total: total) { _ in
                try await env.openURL(nextURL())
            }
            invocations += total
            let share = result.callsPerSecond / baseline.pipelined
            var verdict = concurrency == 64 ? Format.verdict(share >= 0.5) : ""
            if result.failures > 0 { verdict += " (\(result.failures) failed: \(result.firstError ?? ""))" }
            var name = "OpenURL throughput, \(concurrency) caller\(concurrency == 1 ? "" : "s")"
            if let before, let after = env.transactionCount, after > before {
                name += String(format: " (%.1f calls/txn)", Double(total) / Double(after - before))
            }
            if concurrency == 64 {
                table.goal("throughput, 64 in flight ≥ 0.5× Ping's", String(format: "%.2f×", share), met: share >= 0.5, from: "daemon in-process")
            }
            table.add(name, Format.rate(result.callsPerSecond), ratio: Format.percent(share),
                      goal: concurrency == 64 ? "≥ 50%" : "", verdict: verdict)
            print("  OpenURL throughput at \(concurrency): \(Format.rate(result.callsPerSecond))\(result.failures > 0 ? ", \(result.failures) failed" : "")")
        }

        // 3. Delivery to an active app: from the OpenURL call to ActivateAction received.
        let app = try StandInApp(address: env.bus.address)
        defer { app.close() }
        try await app.becomeActive()
        try await waitUntilActive(env)
        let clock = ContinuousClock()
        var replies: [Double] = []
        var deliveries: [Double] = []
        let warmDeliveries = max(1, options.warmup / 10)
        for i in 0..<(warmDeliveries + options.deliveryCalls) {
            let url = nextURL()
            app.probe.expect(url)
            let start = clock.now
            try await env.openURL(url)
            let replied = clock.now
            let arrived = await app.probe.arrival(of: url)
            if i >= warmDeliveries {
                replies.append(Stats.microseconds(start.duration(to: replied)))
                deliveries.append(Stats.microseconds(start.duration(to: arrived)))
            }
        }
        invocations += warmDeliveries + options.deliveryCalls
        let delivery = Stats(microseconds: deliveries)
        let activeReply = Stats(microseconds: replies)
        let dRatio = delivery.p50 / pingP50
        table.add("Delivery latency p50 (OpenURL call → ActivateAction received)", Format.micros(delivery.p50),
                  ratio: Format.ratio(dRatio), goal: "≤ 4×", verdict: Format.verdict(dRatio <= 4))
        table.goal("delivery p50 ≤ 4× Ping", String(format: "%.2f× (%@)", dRatio, Format.micros(delivery.p50)), met: dRatio <= 4, from: "daemon in-process")
        table.add("Delivery latency p99", Format.micros(delivery.p99), ratio: Format.ratio(delivery.p99 / pingP99))
        table.add("OpenURL round trip p50, app active (delivering)", Format.micros(activeReply.p50), ratio: Format.ratio(activeReply.p50 / pingP50))
        print("  delivery: p50 \(Format.micros(delivery.p50)), p99 \(Format.micros(delivery.p99)); reply while active p50 \(Format.micros(activeReply.p50))")

        // 4. Throughput at 64 while the app is active and every invocation is also delivered.
        let delivered0 = app.probe.count
        let activeTotal = options.throughputCalls[64] ?? 10_000
        let active = await Throughput.run(concurrency: 64, total: activeTotal) { _ in
            try await env.openURL(nextURL())
        }
        invocations += activeTotal
        try await settle(app)
        table.add("OpenURL throughput, 64 callers, app active", Format.rate(active.callsPerSecond),
                  ratio: Format.percent(active.callsPerSecond / baseline.pipelined),
                  verdict: active.failures > 0 ? "\(active.failures) failed" : "")
        table.note("with the app active, \(Format.grouped(app.probe.count - delivered0)) of \(Format.grouped(activeTotal)) concurrent invocations reached ActivateAction (a newer pending route supersedes an older one not yet delivered)")

        // 5. Resident memory after `rssInvocations` invocations in all (app active).
        if invocations < options.rssInvocations {
            let more = options.rssInvocations - invocations
            let fill = await Throughput.run(concurrency: 64, total: more) { _ in
                try await env.openURL(nextURL())
            }
            invocations += more
            if fill.failures > 0 { table.note("\(fill.failures) of the RSS filler invocations failed: \(fill.firstError ?? "")") }
            try await settle(app)
        }
        if let memoryAtStart {
            table.add("RSS before the engine runs (bench process, daemon in-process)", Format.mebibytes(kib: memoryAtStart.rss))
        }
        if let memory = ProcessMemory.read() {
            table.add("RSS after \(Format.grouped(invocations)) invocations (bench process, daemon in-process)",
                      Format.mebibytes(kib: memory.rss), verdict: "peak \(Format.mebibytes(kib: memory.peak))")
        }
        if let after = env.transactionCount {
            table.note(String(format: "SQLite write transactions: %@ for %@ invocations (%.2f invocations per transaction, deliveries' status changes included in the transactions)",
                              Format.grouped(after - transactionsAtStart), Format.grouped(invocations),
                              Double(invocations) / Double(max(1, after - transactionsAtStart))))
        }
    }

    /// Polls `GetAppState` until the daemon sees the stand-in app as active.
    static func waitUntilActive(_ env: BenchEnvironment) async throws {
        for _ in 0..<500 {
            if try await env.appState() == "active" { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw DBusError.failed("the stand-in app never became active")
    }

    /// Waits until deliveries stop arriving (at most 5 s), so the next phase starts quiet.
    static func settle(_ app: StandInApp) async throws {
        var last = -1
        for _ in 0..<100 where app.probe.count != last {
            last = app.probe.count
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
