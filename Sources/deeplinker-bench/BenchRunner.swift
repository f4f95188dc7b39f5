import DBusKit
import Foundation

/// Runs the chosen subcommand and prints (and optionally writes) the table.
enum BenchRunner {
    static func run(_ options: BenchOptions) async -> Int32 {
        if options.command == .e2eApp { return await E2EApp.run() }
        if options.command == .routing {
            RoutingBenchmark.run()
            return 0
        }
        guard let routeFile = BenchRouteFile.locate(options.routeFile) else {
            FileHandle.standardError.write(Data("deeplinker-bench: cannot find Config/apps/\(BenchRouteFile.fileName); run from the package root or pass --route-file\n".utf8))
            return 1
        }
        let table = ResultTable()
        if options.command == .cpu {
            guard let binary = ExternalDaemonBenchmark.locate(options.deeplinkerd) else {
                FileHandle.standardError.write(Data("deeplinker-bench: no deeplinkerd binary; build it or pass --deeplinkerd\n".utf8))
                return 1
            }
            do {
                try await ExternalDaemonBenchmark.runCPU(binary: binary, routeFile: routeFile, stateRoot: options.stateRoot, options: options, table: table)
            } catch {
                FileHandle.standardError.write(Data("deeplinker-bench: \(error)\n".utf8))
                return 1
            }
            print(table.plainText())
            return 0
        }
        if options.command != .e2e { print("deeplinker-bench \(options.command.rawValue): private dbus-daemon, deeplinkerd in-process (buildDaemon, SQLite, WAL fdatasync before each reply), DBusKit client") }
        let started = ContinuousClock.now
        let loadAtStart = loadAverage()
        var status: Int32 = 0
        if options.command == .coldstart {
            return await coldStart(options, routeFile: routeFile, table: table)
        }
        if options.command == .e2e {
            do {
                try await E2EBenchmark.run(routeFile: routeFile, runs: options.e2e, deeplinkerd: options.deeplinkerd, table: table)
            } catch {
                FileHandle.standardError.write(Data("deeplinker-bench: \(error)\n".utf8))
                return 1
            }
            table.note("1-minute load average at start / end: \(loadAtStart) / \(loadAverage()) (\(ProcessInfo.processInfo.activeProcessorCount) CPUs, shared with other processes)")
            print("")
            print(table.plainText())
            if let path = options.markdownPath { try? table.markdown(title: "deeplinker-bench e2e").write(toFile: path, atomically: true, encoding: .utf8) }
            return 0
        }
        if options.command == .focus {
            do {
                if let compositor = CompositorFocusBenchmark.Compositor(rawValue: options.focusBackend) {
                    try await CompositorFocusBenchmark.run(compositor, routeFile: routeFile, runs: options.focusRuns, stateRoot: options.stateRoot, table: table)
                } else {
                    try await FocusBenchmark.run(routeFile: routeFile, runs: options.focusRuns, stateRoot: options.stateRoot, table: table)
                }
            } catch {
                FileHandle.standardError.write(Data("deeplinker-bench: \(error)\n".utf8))
                return 1
            }
            print(table.plainText())
            if let path = options.markdownPath { try? table.markdown(title: "deeplinker-bench focus").write(toFile: path, atomically: true, encoding: .utf8) }
            return 0
        }
        if options.command == .browser {
            do {
                try await BrowserBenchmark.run(routeFile: routeFile, options: options, table: table)
            } catch {
                FileHandle.standardError.write(Data("deeplinker-bench: \(error)\n".utf8))
                return 1
            }
            print(table.plainText())
            if let path = options.markdownPath { try? table.markdown(title: "deeplinker-bench browser").write(toFile: path, atomically: true, encoding: .utf8) }
            return 0
        }
        if options.command == .callers {
            do {
                try await CallerBenchmark.run(routeFile: routeFile, options: options, table: table)
            } catch {
                FileHandle.standardError.write(Data("deeplinker-bench: \(error)\n".utf8))
                return 1
            }
            print(table.plainText())
            if let path = options.markdownPath { try? table.markdown(title: "deeplinker-bench callers").write(toFile: path, atomically: true, encoding: .utf8) }
            return 0
        }
        do {
            let env = try await BenchEnvironment.start(routeFile: routeFile, stateRoot: options.stateRoot)
            do {
                let baseline = try await BusBenchmark.run(
                    client: env.client, destination: BenchEnvironment.daemonName, path: BenchEnvironment.daemonPath,
                    options: options, table: table)
                if options.command != .bus {
                    try await EngineBenchmark.run(env, baseline: baseline, options: options, table: table)
                }
            } catch {
                FileHandle.standardError.write(Data("deeplinker-bench: \(error)\n".utf8))
                status = 1
            }
            await env.stop()
            if status == 0, options.command != .bus, !options.skipExternal,
                let binary = ExternalDaemonBenchmark.locate(options.deeplinkerd)
            {
                try await ExternalDaemonBenchmark.run(binary: binary, routeFile: routeFile, stateRoot: options.stateRoot, options: options, table: table)
                if options.command == .all {
                    try await ColdStartBenchmark.run(binary: binary, routeFile: routeFile, stateRoot: options.stateRoot, runs: options.coldStartRuns, table: table)
                }
                if options.stateRoot == nil {
                    try await ExternalDaemonBenchmark.runWithoutFsync(binary: binary, routeFile: routeFile, options: options, table: table)
                }
            }
            if status == 0, options.command == .engine {
                let routing = RoutingBenchmark.at10k()
                let speedup = routing.linear / routing.trie
                table.goal("route match ≤ 1 µs at 10k routes, ≥ 50× a linear matcher",
                           String(format: "%.0f ns, %.0f×", routing.trie, speedup), met: routing.trie <= 1_000 && speedup >= 50, from: "routing")
            }
        } catch {
            FileHandle.standardError.write(Data("deeplinker-bench: \(error)\n".utf8))
            status = 1
        }
        let seconds = Stats.seconds(started.duration(to: .now))
        table.note(describeRun(options, seconds: seconds))
        table.note("1-minute load average at start / end: \(loadAtStart) / \(loadAverage()) (other processes on the machine share its CPUs and disk)")
        if !table.isEmpty {
            print("")
            print(table.plainText())
            if let path = options.markdownPath {
                do {
                    try table.markdown(title: "deeplinker-bench \(options.command.rawValue)").write(
                        toFile: path, atomically: true, encoding: .utf8)
                    print("Markdown table written to \(path)")
                } catch {
                    FileHandle.standardError.write(Data("deeplinker-bench: cannot write \(path): \(error)\n".utf8))
                    status = 1
                }
            }
        }
        if options.command == .all {
            print("")
            RoutingBenchmark.run()
        }
        return status
    }

    /// `deeplinker-bench coldstart`: only the cold-start measurement, printed with its goal.
    private static func coldStart(_ options: BenchOptions, routeFile: String, table: ResultTable) async -> Int32 {
        guard let binary = ExternalDaemonBenchmark.locate(options.deeplinkerd) else {
            FileHandle.standardError.write(Data("deeplinker-bench: no deeplinkerd next to this executable; build it or pass --deeplinkerd PATH\n".utf8))
            return 1
        }
        do {
            try await ColdStartBenchmark.run(binary: binary, routeFile: routeFile, stateRoot: options.stateRoot, runs: options.coldStartRuns, table: table)
        } catch {
            FileHandle.standardError.write(Data("deeplinker-bench: \(error)\n".utf8))
            return 1
        }
        print("")
        print(table.plainText())
        return 0
    }

    /// The 1-minute load average from `/proc/loadavg`.
    private static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
        return text.split(separator: " ").first.map(String.init) ?? "?"
    }

    private static func describeRun(_ options: BenchOptions, seconds: Double) -> String {
        let cpus = ProcessInfo.processInfo.activeProcessorCount
        let counts = "Ping \(Format.grouped(options.pingCalls)) sequential + \(Format.grouped(options.pipelinedCalls)) pipelined, "
            + "OpenURL \(Format.grouped(options.openURLCalls)), deliveries \(Format.grouped(options.deliveryCalls)), "
            + "throughput calls 1/8/64: \([1, 8, 64].map { Format.grouped(options.throughputCalls[$0] ?? 0) }.joined(separator: "/")), "
            + "warm-up \(Format.grouped(options.warmup))"
        return String(format: "%d CPUs, %.0f s; counts: %@; latency ratios: p50 against Ping p50, p99 against Ping p99; throughput against Ping with 64 in flight, all measured in this run", cpus, seconds, counts)
    }
}
