import DBusKit
import Foundation

/// The same measurements against the real `deeplinkerd` binary in its own process (when it is
/// built next to this executable or given with `--deeplinkerd`), which isolates the daemon's
/// resident memory: `/proc/PID/status` of the daemon alone after `rssInvocations` invocations.
enum ExternalDaemonBenchmark {
    static let label = " [deeplinkerd process]"

    /// The binary to run: `explicit`, else `deeplinkerd` beside this executable.
    static func locate(_ explicit: String?) -> String? {
        if let explicit { return explicit }
        let sibling = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("deeplinkerd").path
        return FileManager.default.isExecutableFile(atPath: sibling) ? sibling : nil
    }

    static func run(binary: String, routeFile: String, stateRoot: String?, options: BenchOptions, table: ResultTable) async throws {
        print("  out of process: \(binary)")
        let bus = try PrivateBus()
        defer { bus.stop() }
        let base = stateRoot.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        let root = base.appendingPathComponent("deeplinker-bench-ext-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let configDir = root.appendingPathComponent("config")
        try BenchRouteFile.install(from: routeFile, into: configDir)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "--config-dir", configDir.path, "--state-dir", root.appendingPathComponent("state").path, "--bus-address", bus.address,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["DEEPLINKER_LOG_LEVEL"] = "warning"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { stop(process) }

        let client = try DBusConnection(address: bus.address)
        defer { client.close() }
        try await waitForName(client, process: process)
        let pid = String(process.processIdentifier)
        let name = BenchEnvironment.daemonName
        let path = BenchEnvironment.daemonPath

        let baseline = try await BusBenchmark.run(client: client, destination: name, path: path, options: options, table: table, label: label)
        @Sendable func openURL() async throws {
            _ = try await client.call(
                destination: name, path: path, interface: BenchEnvironment.daemonInterface, member: "OpenURL",
                arguments: [.string(BenchRouteFile.appID), .string(EngineBenchmark.nextURL())])
        }
        let roundTrip = try await Latency.series(count: options.openURLCalls, warmup: options.warmup / 4) { _ in try await openURL() }
        let rtRatio = roundTrip.p50 / baseline.ping.p50
        table.add("OpenURL round trip p50\(label)", Format.micros(roundTrip.p50), ratio: Format.ratio(rtRatio),
                  goal: "≤ 3×", verdict: Format.verdict(rtRatio <= 3))
        table.add("OpenURL round trip p99\(label)", Format.micros(roundTrip.p99), ratio: Format.ratio(roundTrip.p99 / baseline.ping.p99))
        let total = options.throughputCalls[64] ?? 10_000
        let result = await Throughput.run(concurrency: 64, total: total) { _ in try await openURL() }
        let share = result.callsPerSecond / baseline.pipelined
        table.add("OpenURL throughput, 64 callers\(label)", Format.rate(result.callsPerSecond), ratio: Format.percent(share),
                  goal: "≥ 50%", verdict: Format.verdict(share >= 0.5) + (result.failures > 0 ? " (\(result.failures) failed)" : ""))
        print("  OpenURL\(label): p50 \(Format.micros(roundTrip.p50)), 64 callers \(Format.rate(result.callsPerSecond))")

        let done = options.openURLCalls + options.warmup / 4 + total
        let startMemory = ProcessMemory.read(pid: pid)
        if done < options.rssInvocations {
            let fill = await Throughput.run(concurrency: 64, total: options.rssInvocations - done) { _ in try await openURL() }
            if fill.failures > 0 { table.note("\(fill.failures) RSS filler invocations failed\(label): \(fill.firstError ?? "")") }
        }
        if let memory = ProcessMemory.read(pid: pid) {
            let growth = startMemory.map { String(format: ", +%@ over the last %@", Format.mebibytes(kib: memory.rss - $0.rss), Format.grouped(options.rssInvocations - done)) } ?? ""
            table.add("deeplinkerd RSS after \(Format.grouped(max(done, options.rssInvocations))) invocations (its /proc/PID/status)",
                      Format.mebibytes(kib: memory.rss), verdict: "peak \(Format.mebibytes(kib: memory.peak))\(growth)")
        }
    }

    /// Waits (up to 15 s) until the daemon owns its name.
    private static func waitForName(_ client: DBusConnection, process: Process) async throws {
        for _ in 0..<1_500 {
            if try await client.nameOwner(BenchEnvironment.daemonName) != nil { return }
            guard process.isRunning else { throw DBusError.failed("deeplinkerd exited with status \(process.terminationStatus)") }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw DBusError.failed("deeplinkerd did not take its name within 15 s")
    }

    /// SIGTERM, then SIGKILL if it lingers.
    private static func stop(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<500 where process.isRunning { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
