import DBusKit
import DeeplinkerProtocol
import Foundation
import Spawn

/// `deeplinker-bench e2e`: a link from `gio open URL` to the app's handler, for the stand-in app
/// (`e2e-app`, its own process), two ways in the same run, alternating:
/// - through Deeplinker: the handler entry `deeplinker install-desktop` writes (scheme
///   `bestrecipes`), so GIO runs its `Exec` (or, when it is D-Bus-activatable, calls
///   `org.freedesktop.Application.Open` on the daemon), the daemon routes and delivers with
///   `ActivateAction`;
/// - direct: the app's own `DBusActivatable=true` entry (scheme `bestrecipesdirect`), so GIO calls
///   the app's `org.freedesktop.Application.Open`.
/// The time runs from just before `gio` is started to the app's handler (the app reads
/// `CLOCK_MONOTONIC` as the call arrives). Warm: daemon and app running, the app active. Cold: the
/// app not running (bus-activated, both ways), and the daemon not running (bus-activated; only
/// through Deeplinker). Everything is private: a `dbus-daemon`, XDG directories, the release
/// `deeplinkerd` and `deeplinker` beside this executable.
enum E2EBenchmark {
    static let goalRatio = 1.15
    static let directScheme = "bestrecipesdirect"
    static let appID = BenchRouteFile.appID

    struct Runs: Sendable {
        var warm = 40
        var cold = 12
    }

    static func run(routeFile: String, runs: Runs, deeplinkerd: String?, table: ResultTable) async throws {
        let binaries = try Binaries.locate(deeplinkerd: deeplinkerd)
        let setup = try await Setup.start(routeFile: routeFile, binaries: binaries)
        do {
            try await measure(setup, runs: runs, table: table)
        } catch {
            await setup.stop()
            throw error
        }
        await setup.stop()
    }

    private static func measure(_ s: Setup, runs: Runs, table: ResultTable) async throws {
        table.ratioHeader = "vs direct"
        print("  e2e: gio \(s.binaries.gio), deeplinker \(s.binaries.deeplinker), deeplinkerd \(s.binaries.deeplinkerd)")
        print("  e2e: handler entry \(s.handlerEntryKind)")
        // Warm: a few unmeasured pairs first (page cache, the daemon's first calls).
        for i in 0..<4 { _ = try await s.pair(i) }
        var through: [Double] = []
        var direct: [Double] = []
        for i in 0..<runs.warm {
            let (a, b) = try await s.pair(i)
            through.append(a)
            direct.append(b)
        }
        let warm = PairedComparison(subject: through, baseline: direct)
        print(String(format: "  e2e warm: through Deeplinker p50 %.2f ms, direct p50 %.2f ms, ratio %.2f× (median of pair ratios %.2f×)",
                     warm.subject.p50 / 1000, warm.baseline.p50 / 1000, warm.ratioOfMedians, warm.medianPairRatio))

        var coldThrough: [Double] = []
        var coldDirect: [Double] = []
        for i in 0..<runs.cold {
            for subject in PairedComparison.subjectFirst(i) ? [true, false] : [false, true] {
                try await s.stopApp()
                let sample = try await s.once(throughDeeplinker: subject)
                if subject { coldThrough.append(sample) } else { coldDirect.append(sample) }
            }
        }
        let coldApp = PairedComparison(subject: coldThrough, baseline: coldDirect)
        print(String(format: "  e2e cold app: through Deeplinker p50 %.2f ms, direct p50 %.2f ms",
                     coldApp.subject.p50 / 1000, coldApp.baseline.p50 / 1000))

        try await s.ensureAppActive()
        var coldDaemon: [Double] = []
        for _ in 0..<runs.cold {
            try await s.stopDaemon()
            coldDaemon.append(try await s.once(throughDeeplinker: true))
        }
        let daemonStats = Stats(microseconds: coldDaemon)
        print(String(format: "  e2e cold daemon: through Deeplinker p50 %.2f ms", daemonStats.p50 / 1000))

        func ms(_ stats: Stats) -> String { String(format: "%.1f / %.1f ms", stats.p50 / 1000, stats.p99 / 1000) }
        table.add("e2e warm: gio open → app handler, through Deeplinker, p50 / p99", ms(warm.subject),
                  ratio: Format.ratio(warm.ratioOfMedians))
        table.add("e2e warm: gio open → app handler, direct (app's DBusActivatable entry, Open), p50 / p99", ms(warm.baseline))
        let met = warm.ratioOfMedians <= goalRatio
        table.add("e2e warm: through Deeplinker / direct at p50 (median of \(runs.warm) pair ratios; extra per link)",
                  String(format: "%.2f× (%.2f×; %+.1f ms)", warm.ratioOfMedians, warm.medianPairRatio, warm.medianPairDifference / 1000),
                  goal: String(format: "≤ %.2f×", goalRatio), verdict: Format.verdict(met))
        table.add("e2e cold app (bus-activated): through Deeplinker, p50 / p99", ms(coldApp.subject), ratio: Format.ratio(coldApp.ratioOfMedians))
        table.add("e2e cold app (bus-activated): direct, p50 / p99", ms(coldApp.baseline))
        table.add("e2e cold daemon (bus-activated deeplinkerd), app active: through Deeplinker, p50 / p99", ms(daemonStats))
        table.goal(String(format: "P9: a link through Deeplinker ≤ %.2f× direct at p50 (warm)", goalRatio),
                   String(format: "%.2f×", warm.ratioOfMedians), met: met, from: "e2e")
        table.note("e2e: \(runs.warm) warm pairs and \(runs.cold) cold pairs, each pair through Deeplinker and direct back to back in alternating order (AB BA …), so both see the same load; ratios against direct in this run")
    }

    /// The programs the bench runs.
    struct Binaries: Sendable {
        let deeplinkerd: String
        let deeplinker: String
        let bench: String
        let gio = "/usr/bin/gio"

        static func locate(deeplinkerd explicit: String?) throws -> Binaries {
            let bench = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
            let directory = (bench as NSString).deletingLastPathComponent
            guard let deeplinkerd = ExternalDaemonBenchmark.locate(explicit) else {
                throw DBusError.failed("no deeplinkerd beside \(bench); build it (swift build -c release --product deeplinkerd) or pass --deeplinkerd")
            }
            let deeplinker = directory + "/deeplinker"
            guard FileManager.default.isExecutableFile(atPath: deeplinker) else {
                throw DBusError.failed("no \(deeplinker); build it (swift build -c release --product deeplinker)")
            }
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gio") else { throw DBusError.failed("no /usr/bin/gio (libglib2.0-bin)") }
            return Binaries(deeplinkerd: deeplinkerd, deeplinker: deeplinker, bench: bench)
        }
    }
}

extension E2EBenchmark {
    /// The private desktop: bus, XDG directories, entries, the client that watches the app's reports.
    final class Setup: @unchecked Sendable {
        let binaries: Binaries
        let root: URL
        let bus: PrivateBus
        let client: DBusConnection
        let events = E2EEvents()
        let environment: [String: String]
        let handlerEntryKind: String
        private let gioLog: Int32
        private var sequence = 0

        private init(binaries: Binaries, root: URL, bus: PrivateBus, client: DBusConnection, environment: [String: String], handlerEntryKind: String, gioLog: Int32) {
            self.binaries = binaries
            self.root = root
            self.bus = bus
            self.client = client
            self.environment = environment
            self.handlerEntryKind = handlerEntryKind
            self.gioLog = gioLog
        }

        static func start(routeFile: String, binaries: Binaries) async throws -> Setup {
            let fm = FileManager.default
            let root = fm.temporaryDirectory.appendingPathComponent("deeplinker-bench-e2e-\(UUID().uuidString.prefix(8))")
            func dir(_ name: String) throws -> String {
                let path = root.appendingPathComponent(name).path
                try fm.createDirectory(atPath: path, withIntermediateDirectories: true)
                return path
            }
            let (home, dataHome, configHome, system, routes, state, services, runtime) = (
                try dir("home"), try dir("data"), try dir("config"), try dir("system/applications"), try dir("routes"),
                try dir("state"), try dir("services"), try dir("runtime"))
            chmod(runtime, 0o700)
            // The route file with launch = "auto" (the cold app is bus-activated) and no de-duplication.
            let text = BenchRouteFile.benchText(try String(contentsOfFile: routeFile, encoding: .utf8))
                .replacingOccurrences(of: "launch = \"none\"", with: "launch = \"auto\"")
            try text.write(toFile: routes + "/" + BenchRouteFile.fileName, atomically: true, encoding: .utf8)
            // Bus activation of the daemon and of the app.
            let daemonExec = "\(binaries.deeplinkerd) --config-dir \(routes) --state-dir \(state) --log-level warning"
            try "[D-BUS Service]\nName=\(DeeplinkerBus.name)\nExec=\(daemonExec)\n"
                .write(toFile: "\(services)/\(DeeplinkerBus.name).service", atomically: true, encoding: .utf8)
            // The handler entry's bus name, when the entry is D-Bus-activatable, starts the same daemon.
            let handlerName = DeeplinkerBus.handlerName(forAppID: appID)
            try "[D-BUS Service]\nName=\(handlerName)\nExec=\(daemonExec)\n"
                .write(toFile: "\(services)/\(handlerName).service", atomically: true, encoding: .utf8)
            try "[D-BUS Service]\nName=\(appID)\nExec=\(binaries.bench) e2e-app\n"
                .write(toFile: "\(services)/\(appID).service", atomically: true, encoding: .utf8)
            // The app's own installed entry: D-Bus-activatable, claiming the direct scheme.
            try """
                [Desktop Entry]
                Type=Application
                Name=Best Recipes
                Exec=\(binaries.bench) e2e-app
                DBusActivatable=true
                MimeType=x-scheme-handler/\(directScheme);

                """.write(toFile: "\(system)/\(appID).desktop", atomically: true, encoding: .utf8)

            let bus = try PrivateBus(serviceDirectories: [services])
            let environment = [
                "HOME": home, "XDG_DATA_HOME": dataHome, "XDG_CONFIG_HOME": configHome,
                "XDG_DATA_DIRS": (system as NSString).deletingLastPathComponent, "XDG_RUNTIME_DIR": runtime,
                "XDG_CURRENT_DESKTOP": "", "GIO_USE_VFS": "local", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                "DBUS_SESSION_BUS_ADDRESS": bus.address,
            ]
            // The handler entry exactly as `install-desktop` writes it; the app's own entry as the
            // app installed it (install-desktop's override of it is removed), default for the direct scheme.
            let install = try ChildProcess(
                executable: binaries.deeplinker, arguments: ["install-desktop", appID, "--config-dir", routes],
                environment: environment, standardInput: .null, standardOutput: .null, standardError: .inherit)
            guard install.waitUntilExit() == .exited(0) else { throw DBusError.failed("deeplinker install-desktop failed") }
            try? fm.removeItem(atPath: "\(dataHome)/applications/\(appID).desktop")
            let refresh = try ChildProcess(
                executable: "/usr/bin/update-desktop-database", arguments: ["\(dataHome)/applications"],
                environment: environment, standardInput: .null, standardOutput: .null, standardError: .null)
            refresh.waitUntilExit()
            let mimeapps = configHome + "/mimeapps.list"
            let list = (try? String(contentsOfFile: mimeapps, encoding: .utf8)) ?? "[Default Applications]\n"
            try list.replacingOccurrences(
                of: "[Default Applications]\n", with: "[Default Applications]\nx-scheme-handler/\(directScheme)=\(appID).desktop;\n"
            ).write(toFile: mimeapps, atomically: true, encoding: .utf8)
            let handlerText = (try? String(contentsOfFile: "\(dataHome)/applications/\(appID).deeplinker.desktop", encoding: .utf8)) ?? ""
            let kind = handlerText.contains("\nDBusActivatable=true\n") ? "D-Bus-activatable (GIO calls Open on the daemon)" : "Exec (GIO starts deeplinker open)"

            let client = try DBusConnection(address: bus.address)
            let gioLog = open(root.appendingPathComponent("gio.log").path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            let setup = Setup(
                binaries: binaries, root: root, bus: bus, client: client, environment: environment, handlerEntryKind: kind, gioLog: gioLog)
            let events = setup.events
            try await client.subscribe(MatchRule(interface: E2EApp.reportInterface, member: E2EApp.reportMember)) { _, arguments in
                guard arguments.count == 4, let member = arguments[0].stringValue, case .uint64(let arrived) = arguments[1],
                    let url = arguments[2].stringValue
                else { return }
                events.put(E2EEvents.Event(member: member, arrived: arrived, url: url, platformData: arguments[3].variantDictionaryValue ?? [:]))
            }
            _ = try await client.startServiceByName(DeeplinkerBus.name)
            try await setup.ensureAppActive()
            return setup
        }

        /// One pair: through Deeplinker and direct, in the order of pair `index`; µs each.
        func pair(_ index: Int) async throws -> (through: Double, direct: Double) {
            if PairedComparison.subjectFirst(index) {
                let a = try await once(throughDeeplinker: true)
                return (a, try await once(throughDeeplinker: false))
            }
            let b = try await once(throughDeeplinker: false)
            return (try await once(throughDeeplinker: true), b)
        }

        /// `gio open` of a new link, timed to the app's handler, in µs; then waits for gio to exit
        /// and lets the last process of the path (`deeplinker open`) finish before the next link.
        func once(throughDeeplinker: Bool) async throws -> Double {
            sequence += 1
            let url = "\(throughDeeplinker ? "bestrecipes" : directScheme)://recipe/\(sequence)"
            let key = E2EEvents.key(url)
            let start = E2EApp.monotonicNanoseconds()
            let gio = try ChildProcess(
                executable: binaries.gio, arguments: ["open", url], environment: environment,
                standardInput: .null, standardOutput: .descriptor(gioLog), standardError: .descriptor(gioLog))
            let event: E2EEvents.Event
            do {
                event = try await events.next(key: key, timeout: .seconds(20))
            } catch {
                gio.kill()
                throw DBusError.failed("\(url): the app's handler was not called within 20 s (\(gio.termination.map { "gio \($0)" } ?? "gio running"); see \(root.path)/gio.log)")
            }
            let termination = await gio.exit()
            guard termination == .exited(0) else { throw DBusError.failed("gio open \(url): \(termination) (see \(root.path)/gio.log)") }
            try await Task.sleep(for: .milliseconds(40))
            return Double(event.arrived &- start) / 1000
        }

        /// Stops the app (SIGTERM) and waits until the daemon, too, sees it not running.
        func stopApp() async throws {
            try await stop(name: appID)
            if try await client.nameOwner(DeeplinkerBus.name) != nil {
                try await waitForAppState("not-running")
            }
        }

        /// Stops the daemon (SIGTERM) and waits until its process is gone (it let go of its database).
        func stopDaemon() async throws {
            try await stop(name: DeeplinkerBus.name)
        }

        /// Starts the app if needed and waits until the daemon reports it active.
        func ensureAppActive() async throws {
            if try await client.nameOwner(appID) == nil { _ = try await client.startServiceByName(appID) }
            try await waitForAppState("active")
        }

        private func waitForAppState(_ wanted: String) async throws {
            for _ in 0..<2_000 {
                let state = try await client.call(
                    destination: DeeplinkerBus.name, path: DeeplinkerBus.objectPath, interface: DeeplinkerBus.interface,
                    member: "GetAppState", arguments: [.string(appID)]).first?.stringValue
                if state == wanted { return }
                try await Task.sleep(for: .milliseconds(5))
            }
            throw DBusError.failed("\(appID) did not become \(wanted)")
        }

        private func stop(name: String) async throws {
            guard try await client.nameOwner(name) != nil else { return }
            let pid = pid_t(try await client.processID(of: name))
            kill(pid, SIGTERM)
            // Activated processes are the bus's children: gone once the bus reaps them.
            for _ in 0..<4_000 {
                if kill(pid, 0) != 0, try await client.nameOwner(name) == nil { return }
                try await Task.sleep(for: .milliseconds(2))
            }
            throw DBusError.failed("\(name) (pid \(pid)) did not stop")
        }

        func stop() async {
            for name in [DeeplinkerBus.name, appID] { try? await stop(name: name) }
            client.close()
            bus.stop()
            close(gioLog)
            try? FileManager.default.removeItem(at: root)
        }
    }
}

/// The app's reports, by link: the bench waits for the one of the link it sent.
final class E2EEvents: @unchecked Sendable {
    struct Event: Sendable {
        let member: String
        let arrived: UInt64
        let url: String
        let platformData: [String: DBusValue]
    }

    private let lock = NSLock()
    private var arrived: [String: Event] = [:]
    private var waiting: [String: CheckedContinuation<Event, any Error>] = [:]

    /// The key of a link: its last path segment, a number unique in the run (the daemon passes the
    /// URL on as `deeplinker.url`; the direct path as `Open`'s first URI).
    static func key(_ url: String) -> String { String(url.split(separator: "/").last ?? "") }

    func put(_ event: Event) {
        let key = Self.key(event.url)
        let waiter = lock.withLock { () -> CheckedContinuation<Event, any Error>? in
            if let waiter = waiting.removeValue(forKey: key) { return waiter }
            arrived[key] = event
            return nil
        }
        waiter?.resume(returning: event)
    }

    func next(key: String, timeout: Duration) async throws -> Event {
        let timer = Task {
            try await Task.sleep(for: timeout)
            self.fail(key)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let ready = lock.withLock { () -> Event? in
                if let event = arrived.removeValue(forKey: key) { return event }
                waiting[key] = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func fail(_ key: String) {
        let waiter = lock.withLock { waiting.removeValue(forKey: key) }
        waiter?.resume(throwing: CancellationError())
    }
}
