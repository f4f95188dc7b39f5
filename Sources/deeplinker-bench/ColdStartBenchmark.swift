import DBusKit
import DeeplinkerCore
import DeeplinkerDaemon
import DeeplinkerProtocol
import Foundation
import Spawn

/// Cold start: a `ResolveURL` to `org.deeplinker.Deeplinker1` while nobody owns it, so `dbus-daemon`
/// activates the release `deeplinkerd` from a service file, until the daemon's first reply; then,
/// after ``rssSettle``, its idle RSS (`VmRSS`). Each run gets a new bus; the state directory is kept
/// between runs (a restart, the common case). Two databases: a young one (the first run creates it,
/// reported apart) and a full one, made beforehand by the store itself, holding ``fullInvocations``
/// invocations received over the last hour, each with a de-duplication key. The daemon starts as
/// users start it (SPEC §9): no flags, its route file in `$XDG_CONFIG_HOME/deeplinker/apps` and its
/// state in `$XDG_STATE_HOME/deeplinker`, set in the bus's activation environment as a session does.
/// Goals (issue 37): ≤ 5 ms median, full ≤ young + 2 ms; idle RSS ≤ 10 MiB, full ≤ young + 1.5 MiB.
enum ColdStartBenchmark {
    static let goalMilliseconds = 5.0
    static let fullExtraMilliseconds = 2.0
    static let goalRSSMiB = 10.0
    static let fullExtraRSSMiB = 1.5
    /// Retained invocations of the full database.
    static let fullInvocations = 10_000
    /// How long after the first reply the RSS is read (a measurement's settle time, not a test's wait).
    static let rssSettle: Duration = .seconds(1)

    /// One database's runs: wall times (µs), CPU (µs), RSS (KiB), and the first run's time if apart.
    struct Series {
        var wall: [Double] = []
        var cpu: [Double] = []
        var rss: [Double] = []
        var first: Double?
        var wallP50: Double { Stats(microseconds: wall).p50 / 1000 }
        var wallP99: Double { Stats(microseconds: wall).p99 / 1000 }
        var rssP50MiB: Double { Stats(microseconds: rss).p50 / 1024 }
    }

    static func run(binary: String, routeFile: String, stateRoot: String?, runs: Int, table: ResultTable) async throws {
        print("  cold start: \(binary), \(runs) activations on a young and on a full database")
        let base = stateRoot.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        let root = base.appendingPathComponent("deeplinker-bench-cold-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let services = root.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        try "[D-BUS Service]\nName=\(BenchEnvironment.daemonName)\nExec=\(binary)\n"
            .write(to: services.appendingPathComponent("\(BenchEnvironment.daemonName).service"), atomically: true, encoding: .utf8)

        let youngRoot = root.appendingPathComponent("young")
        let young = try await series(
            services: services.path, environment: try ExternalDaemonBenchmark.defaultStartEnvironment(root: youngRoot, routeFile: routeFile),
            runs: runs, firstApart: true)
        let fullRoot = root.appendingPathComponent("full")
        let fullEnvironment = try ExternalDaemonBenchmark.defaultStartEnvironment(root: fullRoot, routeFile: routeFile)
        try await fillDatabase(stateDirectory: fullEnvironment["XDG_STATE_HOME"]! + "/deeplinker")
        let full = try await series(services: services.path, environment: fullEnvironment, runs: runs, firstApart: false)

        let youngOK = young.wallP50 <= goalMilliseconds
        let fullOK = full.wallP50 <= goalMilliseconds && full.wallP50 <= young.wallP50 + fullExtraMilliseconds
        table.add(
            "cold start, young database: bus activation → first reply (ResolveURL) p50 / p99, \(runs) runs",
            String(format: "%.1f / %.1f ms", young.wallP50, young.wallP99), goal: String(format: "≤ %.0f ms", goalMilliseconds),
            verdict: Format.verdict(youngOK))
        table.add(
            "cold start, \(fullInvocations) invocations of the last hour: p50 / p99",
            String(format: "%.1f / %.1f ms", full.wallP50, full.wallP99),
            goal: String(format: "≤ %.0f ms, ≤ young + %.0f ms", goalMilliseconds, fullExtraMilliseconds), verdict: Format.verdict(fullOK))
        table.add(
            "cold start, CPU of deeplinkerd's threads until the first reply, p50 young / full",
            String(format: "%.1f / %.1f ms", Stats(microseconds: young.cpu).p50 / 1000, Stats(microseconds: full.cpu).p50 / 1000))
        let rssYoungOK = young.rssP50MiB <= goalRSSMiB
        let rssFullOK = full.rssP50MiB <= goalRSSMiB && full.rssP50MiB <= young.rssP50MiB + fullExtraRSSMiB
        table.add(
            "idle RSS after the first reply (+\(rssSettle)), p50, young database", String(format: "%.1f MiB", young.rssP50MiB),
            goal: String(format: "≤ %.0f MiB", goalRSSMiB), verdict: Format.verdict(rssYoungOK))
        table.add(
            "idle RSS after the first reply, p50, full database", String(format: "%.1f MiB", full.rssP50MiB),
            goal: String(format: "≤ %.0f MiB, ≤ young + %.1f MiB", goalRSSMiB, fullExtraRSSMiB), verdict: Format.verdict(rssFullOK))
        if let first = young.first {
            table.add("cold start with a new state directory (creates the database)", String(format: "%.1f ms", first))
        }
        print(String(
            format: "  cold start: young p50 %.1f ms (p99 %.1f), full p50 %.1f ms (p99 %.1f); RSS young %.1f MiB, full %.1f MiB",
            young.wallP50, young.wallP99, full.wallP50, full.wallP99, young.rssP50MiB, full.rssP50MiB))
    }

    /// `runs` activations on one state directory (plus a first one reported apart if `firstApart`).
    private static func series(services: String, environment: [String: String], runs: Int, firstApart: Bool) async throws -> Series {
        var series = Series()
        for index in 0..<(runs + (firstApart ? 1 : 0)) {
            let sample = try await once(services: services, environment: environment)
            if firstApart && index == 0 {
                series.first = sample.milliseconds
                continue
            }
            series.wall.append(sample.milliseconds * 1000)
            if let cpu = sample.cpu { series.cpu.append(cpu) }
            if let rss = sample.rssKiB { series.rss.append(Double(rss)) }
        }
        return series
    }

    /// The full database: ``fullInvocations`` delivered invocations spread over the last hour, each
    /// with its own de-duplication key, written by the store (as a daemon would have), then closed.
    private static func fillDatabase(stateDirectory: String) async throws {
        let store = try SQLiteInvocationStore(directory: stateDirectory, historyLimit: fullInvocations)
        let now = SystemEngineClock().nowMicroseconds()
        let hour: Int64 = 3_600_000_000
        var batch: [StoreChange] = []
        for index in 0..<fullInvocations {
            let receivedAt = now - hour + hour * Int64(index) / Int64(fullInvocations)
            let url = "bestrecipes://recipe/\(index)"
            batch.append(.invocation(Invocation(
                id: InvocationID.make(unixMilliseconds: receivedAt / 1_000) + "-\(index)", appID: BenchRouteFile.appID, source: .url,
                route: Route(target: "recipe", parameters: ["id": "\(index)"], source: .url), status: .delivered,
                receivedAt: receivedAt, platformData: ["url": url], dedupeKey: DedupeKey.invocation(kind: "url", input: url))))
            if batch.count == 500 {
                try await store.write(batch)
                batch = []
            }
        }
        if !batch.isEmpty { try await store.write(batch) }
        try await store.close()
        // To measure a daemon of schema v5 (before the de-duplication index), with the sqlite3 tool:
        // the same rows, as v5.
        if ProcessInfo.processInfo.environment["DEEPLINKER_BENCH_SCHEMA"] == "5" {
            let tool = try ChildProcess(
                executable: "/usr/bin/sqlite3",
                arguments: [store.path, "DROP INDEX IF EXISTS invocation_by_dedupe_key; PRAGMA user_version = 5; PRAGMA wal_checkpoint(TRUNCATE);"],
                environment: [:], standardInput: .null, standardOutput: .null, standardError: .null)
            _ = tool.waitUntilExit()
        }
    }

    /// One activation on a new bus: the time from sending the call to its reply, in ms, the CPU
    /// time the daemon's threads used by then, in µs, and its RSS ``rssSettle`` later, in KiB.
    private static func once(services: String, environment: [String: String]) async throws -> (milliseconds: Double, cpu: Double?, rssKiB: Int?) {
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
            member: "ResolveURL", arguments: [.string(BenchRouteFile.appID), .string("bestrecipes://recipe/1")], timeout: .seconds(20))
        let elapsed = Stats.microseconds(start.duration(to: .now)) / 1000
        // Stop this daemon and wait until it has let go of the database before the next run.
        if let owner = try await client.nameOwner(BenchEnvironment.daemonName),
            let pid = try await client.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetConnectionUnixProcessID", arguments: [.string(owner)]).first?.uint32Value
        {
            let cpu = ProcessCPU.threadRunTime(pid: Int32(pid)).map { $0 / 1000 }
            try await Task.sleep(for: rssSettle)
            let rss = ProcessMemory.read(pid: "\(pid)")?.rss
            kill(pid_t(pid), SIGTERM)
            while kill(pid_t(pid), 0) == 0 { try await Task.sleep(for: .milliseconds(2)) }
            return (elapsed, cpu, rss)
        }
        return (elapsed, nil, nil)
    }
}
