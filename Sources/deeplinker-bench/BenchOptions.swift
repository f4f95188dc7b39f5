import Foundation

/// Command line of `deeplinker-bench`: a subcommand (`bus`, `engine`, `routing`, `all`) and flags
/// that set the counts. `--scale F` multiplies every count (e.g. 0.1 for a quick smoke run).
struct BenchOptions: Sendable {
    /// Which part to run.
    enum Command: String, Sendable { case bus, engine, routing, coldstart, cpu, callers, focus, e2e, browser, all
        /// The app process of `e2e` (started by the bench or bus-activated), not for direct use.
        case e2eApp = "e2e-app"
    }

    var command: Command = .all
    /// `--markdown FILE`: also write the table there.
    var markdownPath: String?
    /// `--warmup N`: unmeasured calls before each latency series.
    var warmup = 2_000
    /// `--ping-calls N`: sequential Ping round trips.
    var pingCalls = 20_000
    /// `--pipelined-calls N`: Ping calls for the 64-in-flight throughput.
    var pipelinedCalls = 60_000
    /// `--openurl-calls N`: sequential OpenURL round trips (app not running).
    var openURLCalls = 5_000
    /// `--delivery-calls N`: sequential OpenURL → ActivateAction deliveries (app active).
    var deliveryCalls = 3_000
    /// `--calls-1 N`, `--calls-8 N`, `--calls-64 N`: OpenURL calls per concurrency level.
    var throughputCalls: [Int: Int] = [1: 3_000, 8: 12_000, 64: 30_000]
    /// `--cpu-calls N`: OpenURL calls (Ping: 4×) from 4 callers for the CPU-per-call measurement.
    var cpuCalls = 6_000
    /// `--rss-invocations N`: invocations before reading the resident set.
    var rssInvocations = 100_000
    /// `--route-file PATH`: the route file to copy (default: Config/apps/com.bestrecipes.App.toml).
    var routeFile: String?
    /// `--deeplinkerd PATH|none`: a `deeplinkerd` binary to measure out of process (default: the
    /// one next to this executable, if built).
    var deeplinkerd: String?
    var skipExternal = false
    /// `--state-root DIR`: where the temporary state directory (the SQLite file) is made; default
    /// the system temporary directory. `/dev/shm` shows the engine's cost without the disk.
    var stateRoot: String?
    /// `--coldstart-runs N`: bus activations of `deeplinkerd` timed to the first reply.
    var coldStartRuns = 30
    /// `--caller-connections N`, `--calls-per-connection N`: new connections and the calls each makes after its first.
    var callerConnections = 300
    var callsPerConnection = 20
    /// `--focus-runs N`: focus changes (and BecameActive signals) timed to the route's delivery.
    var focusRuns = 200
    /// `--backend x11|gnome|kwin`: the desktop `focus` measures on.
    var focusBackend = "x11"
    /// `--e2e-runs N`, `--e2e-cold-runs N`: alternating pairs of links (through Deeplinker, direct), warm and cold.
    var e2e = E2EBenchmark.Runs()
    /// `--browser-clicks N`: clicks on a verified link in headless Chromium (and as many typed loads).
    var browserClicks = 30

    static let usage = """
        usage: deeplinker-bench [bus|engine|routing|coldstart|cpu|callers|focus|e2e|browser|all] [--markdown FILE] [--scale F] [--warmup N]
                                [--ping-calls N] [--pipelined-calls N] [--openurl-calls N] [--delivery-calls N]
                                [--calls-1 N] [--calls-8 N] [--calls-64 N] [--cpu-calls N] [--rss-invocations N]
                                [--route-file PATH] [--deeplinkerd PATH|none] [--state-root DIR] [--coldstart-runs N]
                                [--caller-connections N] [--calls-per-connection N] [--focus-runs N] [--backend x11|gnome|kwin]
                                [--e2e-runs N] [--e2e-cold-runs N] [--browser-clicks N]
          bus      Peer.Ping round trip and 64-in-flight throughput against the daemon (the baseline)
          engine   the baseline, then OpenURL, delivery, throughput at 1/8/64 callers, RSS; with deeplinkerd
                   built: its CPU per call beside dbus-daemon's, idle RSS and wake-ups, a run without fsync;
                   then the table of the performance goals
          routing  the route-matching benchmark
          coldstart  bus activation of deeplinkerd to its first reply (ResolveURL) and its idle RSS, on a young
                   database and on one of 10,000 invocations of the last hour (goals ≤ 5 ms, ≤ 10 MiB)
          callers  the first call of a new connection (caller lookup) against later calls (cached caller)
          focus    X11 focus change → route delivered through focus-watch, beside BecameActive → delivered
                   (Xvfb + openbox + GTK3 windows; goal p50 ≤ BecameActive + 5 ms); --backend gnome: a
                   headless GNOME Shell and its extension; --backend kwin: a headless KWin and focus-watch
          e2e      gio open → the app's handler, through Deeplinker's handler entry and straight through the
                   app's own DBusActivatable entry, alternating; warm, app cold, daemon cold (goal ≤ 1.15× direct)
          browser  a click on a verified link in headless Chromium to the route in the app, beside the same
                   link typed into the address bar (needs root, chromium, chromium-driver, python3-selenium)
          cpu      only deeplinkerd's CPU per OpenURL and per Ping (prints its pid and waits 2 s first, so a
                   profiler can attach: perf record -p PID)
          all      engine, cold start, then routing (default)
        """

    /// Parses `arguments` (without the program name); nil after printing usage or an error.
    static func parse(_ arguments: [String]) -> BenchOptions? {
        var options = BenchOptions()
        var scale = 1.0
        var rest = arguments[...]
        if let first = rest.first, !first.hasPrefix("-") {
            guard let command = Command(rawValue: first) else {
                FileHandle.standardError.write(Data("unknown subcommand '\(first)'\n\(usage)\n".utf8))
                return nil
            }
            options.command = command
            rest = rest.dropFirst()
        }
        while let flag = rest.popFirst() {
            if flag == "--help" || flag == "-h" {
                print(usage)
                return nil
            }
            guard let value = rest.popFirst() else {
                FileHandle.standardError.write(Data("\(flag) needs a value\n\(usage)\n".utf8))
                return nil
            }
            let number = Int(value.replacingOccurrences(of: "_", with: ""))
            switch (flag, number) {
            case ("--markdown", _): options.markdownPath = value
            case ("--route-file", _): options.routeFile = value
            case ("--state-root", _): options.stateRoot = value
            case ("--deeplinkerd", _):
                if value == "none" { options.skipExternal = true } else { options.deeplinkerd = value }
            case ("--scale", _):
                guard let f = Double(value), f > 0 else { return invalid(flag, value) }
                scale = f
            case ("--warmup", let n?) where n >= 0: options.warmup = n
            case ("--ping-calls", let n?) where n > 0: options.pingCalls = n
            case ("--pipelined-calls", let n?) where n > 0: options.pipelinedCalls = n
            case ("--openurl-calls", let n?) where n > 0: options.openURLCalls = n
            case ("--delivery-calls", let n?) where n > 0: options.deliveryCalls = n
            case ("--calls-1", let n?) where n > 0: options.throughputCalls[1] = n
            case ("--calls-8", let n?) where n > 0: options.throughputCalls[8] = n
            case ("--calls-64", let n?) where n > 0: options.throughputCalls[64] = n
            case ("--rss-invocations", let n?) where n >= 0: options.rssInvocations = n
            case ("--coldstart-runs", let n?) where n > 0: options.coldStartRuns = n
            case ("--cpu-calls", let n?) where n > 0: options.cpuCalls = n
            case ("--caller-connections", let n?) where n > 0: options.callerConnections = n
            case ("--calls-per-connection", let n?) where n > 0: options.callsPerConnection = n
            case ("--focus-runs", let n?) where n > 0: options.focusRuns = n
            case ("--backend", _) where ["x11", "gnome", "kwin"].contains(value): options.focusBackend = value
            case ("--e2e-runs", let n?) where n > 0: options.e2e.warm = n
            case ("--e2e-cold-runs", let n?) where n > 0: options.e2e.cold = n
            case ("--browser-clicks", let n?) where n > 0: options.browserClicks = n
            default: return invalid(flag, value)
            }
        }
        if scale != 1 { options.scale(by: scale) }
        return options
    }

    private static func invalid(_ flag: String, _ value: String) -> BenchOptions? {
        FileHandle.standardError.write(Data("invalid \(flag) \(value)\n\(usage)\n".utf8))
        return nil
    }

    private mutating func scale(by factor: Double) {
        func s(_ n: Int) -> Int { max(1, Int((Double(n) * factor).rounded())) }
        warmup = s(warmup)
        pingCalls = s(pingCalls)
        pipelinedCalls = s(pipelinedCalls)
        openURLCalls = s(openURLCalls)
        deliveryCalls = s(deliveryCalls)
        throughputCalls = throughputCalls.mapValues(s)
        rssInvocations = s(rssInvocations)
        cpuCalls = s(cpuCalls)
        callerConnections = s(callerConnections)
        focusRuns = s(focusRuns)
        e2e.warm = s(e2e.warm)
        e2e.cold = s(e2e.cold)
    }
}
