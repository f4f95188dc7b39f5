import DBusKit
import Foundation
import Spawn

/// The same measurements against the real `deeplinkerd` binary in its own process (when it is
/// built next to this executable or given with `--deeplinkerd`), which isolates the daemon's
/// resources: its CPU time per call beside the `dbus-daemon`'s (`/proc/PID/stat`), its resident
/// memory idle and after `rssInvocations` invocations, and its wake-ups when idle.
enum ExternalDaemonBenchmark {
    static let label = " [deeplinkerd process]"

    /// The binary to run: `explicit`, else `deeplinkerd` beside this executable.
    static func locate(_ explicit: String?) -> String? {
        if let explicit { return explicit }
        let sibling = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("deeplinkerd").path
        return FileManager.default.isExecutableFile(atPath: sibling) ? sibling : nil
    }

    /// A private bus with `deeplinkerd` running on it (state under `stateRoot`) and a client.
    final class Running: @unchecked Sendable {
        let bus: PrivateBus
        let process: ChildProcess
        let client: DBusConnection
        let root: URL

        init(binary: String, routeFile: String, stateRoot: String?) async throws {
            bus = try PrivateBus()
            let base = stateRoot.map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
            root = base.appendingPathComponent("deeplinker-bench-ext-\(UUID().uuidString.prefix(8))")
            // Started as users start it (SPEC §9): no flags but the bus, the default level, the
            // route file and state where a user's are.
            var environment = ProcessInfo.processInfo.environment
            for (key, value) in try ExternalDaemonBenchmark.defaultStartEnvironment(root: root, routeFile: routeFile) { environment[key] = value }
            if let level = environment["DEEPLINKER_BENCH_LOG_LEVEL"] { environment["DEEPLINKER_LOG_LEVEL"] = level }
            environment.removeValue(forKey: "WATCHDOG_USEC")
            environment.removeValue(forKey: "NOTIFY_SOCKET")
            process = try ChildProcess(
                executable: binary, arguments: ["--bus-address", bus.address],
                environment: environment, standardInput: .null, standardOutput: .null, standardError: .null)
            client = try DBusConnection(address: bus.address)
            try await ExternalDaemonBenchmark.waitForName(client, process: process)
        }

        var pid: Int32 { process.processIdentifier }

        @Sendable func openURL() async throws {
            _ = try await client.call(
                destination: BenchEnvironment.daemonName, path: BenchEnvironment.daemonPath,
                interface: BenchEnvironment.daemonInterface, member: "OpenURL",
                arguments: [.string(BenchRouteFile.appID), .string(EngineBenchmark.nextURL())])
        }

        @Sendable func ping() async throws {
            try await client.ping(BenchEnvironment.daemonName, path: BenchEnvironment.daemonPath)
        }

        func stop() {
            ExternalDaemonBenchmark.stop(process)
            client.close()
            bus.stop()
            try? FileManager.default.removeItem(at: root)
        }
    }

    /// The environment of a daemon started with no flags: `XDG_CONFIG_HOME` holding the bench's
    /// route file in `deeplinker/apps`, `XDG_STATE_HOME` for the database, both under `root`.
    static func defaultStartEnvironment(root: URL, routeFile: String) throws -> [String: String] {
        let configHome = root.appendingPathComponent("config-home")
        try BenchRouteFile.install(from: routeFile, into: configHome.appendingPathComponent("deeplinker/apps"))
        return ["XDG_CONFIG_HOME": configHome.path, "XDG_STATE_HOME": root.appendingPathComponent("state-home").path]
    }

    static func run(binary: String, routeFile: String, stateRoot: String?, options: BenchOptions, table: ResultTable) async throws {
        print("  out of process: \(binary)")
        let daemon = try await Running(binary: binary, routeFile: routeFile, stateRoot: stateRoot)
        defer { daemon.stop() }
        let pid = daemon.pid
        let busPID = daemon.bus.processIdentifier

        // Idle: resident memory once it answers, and wake-ups over a few quiet seconds.
        try await Task.sleep(for: .milliseconds(500))
        if let idle = ProcessMemory.read(pid: String(pid)) {
            let mib = Double(idle.rss) / 1024
            table.add("deeplinkerd RSS idle, after start-up (its /proc/PID/status)", Format.mebibytes(kib: idle.rss),
                      goal: "≤ 13 MiB", verdict: Format.verdict(mib <= 13))
            table.goal("idle RSS ≤ 13 MiB", Format.mebibytes(kib: idle.rss), met: mib <= 13, from: "deeplinkerd after start-up")
        }
        let idleSeconds = 3.0
        if let wakeups = await idleWakeups(pid: pid, seconds: idleSeconds) {
            table.add(String(format: "deeplinkerd context switches while idle for %.0f s, no watchdog (%d threads)", idleSeconds, ProcessCPU.threadCount(pid: pid) ?? 0),
                      "\(wakeups)", goal: "0", verdict: Format.verdict(wakeups == 0))
            table.goal("no periodic wake-ups when idle", "\(wakeups) in \(Int(idleSeconds)) s", met: wakeups == 0, from: "all threads' ctxt switches, after start-up")
        }

        let baseline = try await BusBenchmark.run(client: daemon.client, destination: BenchEnvironment.daemonName, path: BenchEnvironment.daemonPath, options: options, table: table, label: label)

        // CPU per call, 4 callers: deeplinkerd beside the dbus-daemon that routes the same calls.
        let ping = await CPUPerCall.measure(daemon: pid, bus: busPID, calls: options.cpuCalls * 4, callers: 4, daemon.ping)
        let open = await CPUPerCall.measure(daemon: pid, bus: busPID, calls: options.cpuCalls, callers: 4, daemon.openURL)
        if let ping {
            table.add("CPU per Peer.Ping, 4 callers: deeplinkerd / dbus-daemon", ping.summary, ratio: Format.ratio(ping.ratio))
        }
        if let open {
            table.add("CPU per durable OpenURL, 4 callers: deeplinkerd / dbus-daemon", open.summary, ratio: Format.ratio(open.ratio),
                      goal: "≤ 1.0× (of dbus-daemon)", verdict: Format.verdict(open.ratio <= 1))
            table.goal("CPU per durable OpenURL ≤ 1.0× dbus-daemon's (4 callers)",
                       String(format: "%.2f× (%.0f / %.0f µs)", open.ratio, open.daemon.total, open.bus.total), met: open.ratio <= 1,
                       from: "/proc/PID/stat, \(Format.grouped(options.cpuCalls)) calls")
            print("  CPU per OpenURL: \(open.summary)")
        }
        if let ping { print("  CPU per Ping: \(ping.summary)") }

        let roundTrip = try await Latency.series(count: options.openURLCalls, warmup: options.warmup / 4) { _ in try await daemon.openURL() }
        let rtRatio = roundTrip.p50 / baseline.ping.p50
        table.add("OpenURL round trip p50\(label)", Format.micros(roundTrip.p50), ratio: Format.ratio(rtRatio),
                  goal: "≤ 3×", verdict: Format.verdict(rtRatio <= 3))
        table.add("OpenURL round trip p99\(label)", Format.micros(roundTrip.p99), ratio: Format.ratio(roundTrip.p99 / baseline.ping.p99))
        table.goal("durable OpenURL p50 ≤ 3× Ping", String(format: "%.2f× (%@)", rtRatio, Format.micros(roundTrip.p50)), met: rtRatio <= 3, from: "deeplinkerd process")
        let total = options.throughputCalls[64] ?? 10_000
        let result = await Throughput.run(concurrency: 64, total: total) { _ in try await daemon.openURL() }
        let share = result.callsPerSecond / baseline.pipelined
        table.add("OpenURL throughput, 64 callers\(label)", Format.rate(result.callsPerSecond), ratio: Format.percent(share),
                  goal: "≥ 50%", verdict: Format.verdict(share >= 0.5) + (result.failures > 0 ? " (\(result.failures) failed)" : ""))
        table.goal("throughput, 64 in flight ≥ 0.5× Ping's", String(format: "%.2f×", share), met: share >= 0.5, from: "deeplinkerd process")
        print("  OpenURL\(label): p50 \(Format.micros(roundTrip.p50)), 64 callers \(Format.rate(result.callsPerSecond))")

        let done = options.openURLCalls + options.warmup / 4 + total + options.cpuCalls
        let startMemory = ProcessMemory.read(pid: String(pid))
        if done < options.rssInvocations {
            let fill = await Throughput.run(concurrency: 64, total: options.rssInvocations - done) { _ in try await daemon.openURL() }
            if fill.failures > 0 { table.note("\(fill.failures) RSS filler invocations failed\(label): \(fill.firstError ?? "")") }
        }
        if let memory = ProcessMemory.read(pid: String(pid)) {
            let growth = startMemory.map { String(format: ", +%@ over the last %@", Format.mebibytes(kib: memory.rss - $0.rss), Format.grouped(options.rssInvocations - done)) } ?? ""
            let mib = Double(memory.rss) / 1024
            let count = Format.grouped(max(done, options.rssInvocations))
            table.add("deeplinkerd RSS after \(count) invocations (its /proc/PID/status)",
                      Format.mebibytes(kib: memory.rss), goal: "≤ 30 MiB", verdict: Format.verdict(mib <= 30) + " (peak \(Format.mebibytes(kib: memory.peak))\(growth))")
            table.goal("RSS ≤ 30 MiB after 100k invocations", Format.mebibytes(kib: memory.rss), met: mib <= 30, from: "deeplinkerd after \(count)")
        }
        if let wakeups = await idleWakeups(pid: pid, seconds: idleSeconds) {
            table.add(String(format: "deeplinkerd context switches while idle for %.0f s after the load", idleSeconds), "\(wakeups)", goal: "0", verdict: Format.verdict(wakeups == 0))
        }
    }

    /// `deeplinker-bench cpu`: only the CPU per call, after printing the daemon's pid and waiting
    /// 2 s so that a profiler can attach to it.
    static func runCPU(binary: String, routeFile: String, stateRoot: String?, options: BenchOptions, table: ResultTable) async throws {
        let daemon = try await Running(binary: binary, routeFile: routeFile, stateRoot: stateRoot)
        defer { daemon.stop() }
        print("deeplinkerd pid \(daemon.pid), dbus-daemon pid \(daemon.bus.processIdentifier)")
        try await Task.sleep(for: .seconds(2))
        if let open = await CPUPerCall.measure(daemon: daemon.pid, bus: daemon.bus.processIdentifier, calls: options.cpuCalls, callers: 4, daemon.openURL) {
            table.add("CPU per durable OpenURL, 4 callers: deeplinkerd / dbus-daemon", open.summary, ratio: Format.ratio(open.ratio))
        }
        if let ping = await CPUPerCall.measure(daemon: daemon.pid, bus: daemon.bus.processIdentifier, calls: options.cpuCalls, callers: 4, daemon.ping) {
            table.add("CPU per Peer.Ping, 4 callers: deeplinkerd / dbus-daemon", ping.summary, ratio: Format.ratio(ping.ratio))
        }
    }

    /// The same daemon with its state on tmpfs, where fsync returns at once: what a reply would
    /// cost without the disk's fsync (Ping p50 and OpenURL p50 in that run, and the CPU per call).
    static func runWithoutFsync(binary: String, routeFile: String, options: BenchOptions, table: ResultTable) async throws {
        guard FileManager.default.fileExists(atPath: "/dev/shm") else { return }
        let daemon = try await Running(binary: binary, routeFile: routeFile, stateRoot: "/dev/shm")
        defer { daemon.stop() }
        let ping = try await Latency.series(count: options.pingCalls / 4, warmup: options.warmup / 4) { _ in try await daemon.ping() }
        let open = try await Latency.series(count: options.openURLCalls, warmup: options.warmup / 4) { _ in try await daemon.openURL() }
        let ratio = open.p50 / ping.p50
        table.add("OpenURL p50 without fsync (state on tmpfs; Ping p50 \(Format.micros(ping.p50)) in that run)", Format.micros(open.p50),
                  ratio: Format.ratio(ratio))
        if let cpu = await CPUPerCall.measure(daemon: daemon.pid, bus: daemon.bus.processIdentifier, calls: options.cpuCalls, callers: 4, daemon.openURL) {
            table.add("CPU per OpenURL without fsync, 4 callers: deeplinkerd / dbus-daemon", cpu.summary, ratio: Format.ratio(cpu.ratio))
        }
        table.goal("(reference) OpenURL p50 without fsync, state on tmpfs", String(format: "%.2f× (%@)", ratio, Format.micros(open.p50)), met: nil, from: "deeplinkerd process")
        print("  without fsync: OpenURL p50 \(Format.micros(open.p50)) = \(Format.ratio(ratio)) Ping")
    }

    /// Context switches of every thread of `pid` over `seconds` of no calls; nil when unreadable.
    static func idleWakeups(pid: Int32, seconds: Double) async -> Int? {
        try? await Task.sleep(for: .milliseconds(300))
        guard let before = ProcessCPU.contextSwitches(pid: pid) else { return nil }
        try? await Task.sleep(for: .seconds(seconds))
        guard let after = ProcessCPU.contextSwitches(pid: pid) else { return nil }
        return after - before
    }

    /// Waits (up to 15 s) until the daemon owns its name.
    static func waitForName(_ client: DBusConnection, process: ChildProcess) async throws {
        for _ in 0..<1_500 {
            if try await client.nameOwner(BenchEnvironment.daemonName) != nil { return }
            if let termination = process.termination { throw DBusError.failed("deeplinkerd \(termination)") }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw DBusError.failed("deeplinkerd did not take its name within 15 s")
    }

    /// SIGTERM, then SIGKILL if it lingers.
    static func stop(_ process: ChildProcess) {
        guard process.isRunning else { return }
        process.signal(SIGTERM)
        if process.waitUntilExit(timeout: .seconds(5)) == nil { process.kill() }
    }
}
