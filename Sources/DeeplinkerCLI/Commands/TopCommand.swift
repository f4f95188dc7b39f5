import ArgumentParser
import DBusKit
import DeeplinkerClient
import DeeplinkerProtocol
import FoundationEssentials
import Glibc
import TaskThreads

/// `deeplinker top`: a live full-screen view of the daemon (SPEC §7): one row per app and the
/// newest invocations, redrawn on every `InvocationChanged`, lifecycle signal, name change, key
/// and resize. Off a terminal it prints plain lines as `monitor` does.
struct TopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "top",
        abstract: "Watch apps and invocations live (q quits, / filters by app, arrow keys scroll).",
        discussion: """
            Apps: state, readiness mode (ready in the route file), pending target and its age,
            delivery attempts and last error seen since top started. Invocations: newest first,
            with status and detail; never parameter values. Updates come from the daemon's
            signals (no polling). When standard output is not a terminal it prints the apps, then
            one line per status change (--json: an object per app, then
            monitor's objects). Exits 0 on q, 130 on SIGINT, 143 on SIGTERM, 3 when the
            daemon goes away; the terminal is restored in every case.
            """)

    @OptionGroup var options: GlobalOptions

    /// An app line of the plain output with `--json`.
    struct PlainApp: Encodable {
        var appID: String
        var state: String
        var ready: String
        var pendingTarget: String?

        enum CodingKeys: String, CodingKey {
            case appID = "app_id"
            case state, ready
            case pendingTarget = "pending_target"
        }
    }

    enum Event: Sendable {
        case keys([TopKey])
        case change(InvocationChange)
        case refresh
        case resize
        case tick
        case signal(Int32)
        case daemonGone
        /// A read of the daemon finished (see `Reloader`).
        case reloaded(TopSnapshot)
    }

    func run() async throws {
        let proxy = try DaemonSession.connect(options)
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)
        let owner: String?
        do {
            try await proxy.onInvocationChanged { continuation.yield(.change($0)) }
            try await proxy.connection.subscribe(MatchRule(interface: "org.deeplinker.Lifecycle1")) { _, _ in continuation.yield(.refresh) }
            try await proxy.connection.onNameOwnerChanged { name, _, new in
                if name == DeeplinkerNames.busName {
                    continuation.yield(new.isEmpty ? .daemonGone : .refresh)
                } else if !name.hasPrefix(":") && !name.hasSuffix(DeeplinkerBus.handlerNameSuffix) {
                    // An app's name (its state may have changed); the daemon's own handler names
                    // come and go with it, and asking a daemon on its way out would only wait.
                    continuation.yield(.refresh)
                }
            }
            owner = try await proxy.connection.nameOwner(DeeplinkerNames.busName)
        } catch {
            throw CLIFailure.from(error, busAddress: options.busAddress)
        }
        guard let owner else {
            throw CLIFailure(.daemonNotRunning, "the Deeplinker daemon is not running (nobody owns \(DeeplinkerNames.busName)); start it with `deeplinkerd` or `systemctl --user start deeplinkerd`")
        }
        proxy.connection.onDisconnect { continuation.yield(.daemonGone) }
        // Addressed to the owner: a daemon that stops is not started again behind top's back.
        let daemon = DeeplinkerProxy(connection: proxy.connection, destination: owner, timeout: .seconds(5))
        var model = TopModel()
        let readiness = Self.readiness(configDir: options.configDir)
        do {
            model.apply(try await Self.snapshot(daemon), readiness: readiness)
        } catch {
            throw CLIFailure.from(error, busAddress: options.busAddress)
        }

        guard isatty(STDOUT_FILENO) == 1 else {
            return try await plain(model, events: events)
        }
        try await live(model, daemon: daemon, readiness: readiness, events: events, continuation: continuation)
    }

    /// Off a terminal: the apps once, then one line per status change, as `monitor` prints them.
    func plain(_ model: TopModel, events: AsyncStream<Event>) async throws {
        for app in model.apps {
            if options.json {
                Output.json(PlainApp(appID: app.appID, state: app.state, ready: app.readiness, pendingTarget: app.pendingTarget))
                continue
            }
            let pending = app.pendingTarget.map { " pending=\($0)" } ?? ""
            Output.line("app \(app.appID) state=\(app.state) ready=\(app.readiness)\(pending)")
        }
        for await event in events {
            switch event {
            case .change(let change) where options.json:
                Output.json(change)
            case .change(let change):
                let detail = change.detail.isEmpty ? "" : "  \(change.detail)"
                Output.line("\(Output.timestamp(Self.now()))  \(change.appID)  \(change.invocationID)  \(change.status)\(detail)")
            case .daemonGone:
                throw CLIFailure(.daemonNotRunning, "the daemon went away")
            default: break
            }
        }
    }

    /// On a terminal: the full-screen view until q, a signal, or the daemon goes away.
    func live(
        _ start: TopModel, daemon: DeeplinkerProxy, readiness: [String: String], events: AsyncStream<Event>,
        continuation: AsyncStream<Event>.Continuation
    ) async throws {
        var model = start
        let signals = try SignalThread.trap([SIGINT, SIGTERM, SIGWINCH, SIGHUP], name: "top-signals")
        let terminal = TopTerminal()
        let forward = Task {
            for await number in signals { continuation.yield(number == SIGWINCH ? .resize : .signal(number)) }
        }
        TopTerminal.readKeys { continuation.yield(.keys($0)) }
        // Ages of pending routes move on by themselves: redraw once a second (no daemon call).
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                continuation.yield(.tick)
            }
        }
        defer {
            ticker.cancel()
            forward.cancel()
            terminal.restore()
        }
        func draw() {
            let (width, height) = TopTerminal.size()
            terminal.draw(TopRenderer.render(model, width: width, height: height, now: Self.now()))
        }
        let reloader = Reloader(daemon: daemon, continuation: continuation)
        draw()
        for await event in events {
            switch event {
            case .keys(let keys):
                for key in keys where !model.handle(key) { return }
            case .change(let change):
                model.apply(change, now: Self.now())
                reloader.request()
            case .refresh:
                reloader.request()
            case .reloaded(let snapshot):
                model.apply(snapshot, readiness: readiness)
            case .resize, .tick:
                break
            case .signal(let number):
                terminal.restore()
                throw ExitCode(128 + number)
            case .daemonGone:
                terminal.restore()
                throw CLIFailure(.daemonNotRunning, "the daemon went away")
            }
            draw()
        }
    }

    /// Reads the apps, their states and pending routes (targets only), and the newest invocations.
    static func snapshot(_ daemon: DeeplinkerProxy) async throws(DBusError) -> TopSnapshot {
        let apps = try await daemon.listApps()
        var states: [String: String] = [:]
        var pending: [String: TopSnapshot.Pending] = [:]
        for app in apps {
            states[app] = try await daemon.appState(appID: app)
            if let route = try await daemon.pending(appID: app) {
                let detail = (try? await daemon.invocation(id: route.invocationID))?.detail ?? ""
                pending[app] = TopSnapshot.Pending(target: route.target, receivedAt: route.receivedAtMicroseconds, detail: detail)
            }
        }
        return TopSnapshot(apps: apps, states: states, pending: pending, history: try await daemon.history(limit: 200))
    }

    /// Reads the daemon again when asked, at most one read in flight and one more queued, so a
    /// flood of signals costs a few reads rather than one each; each result arrives as `.reloaded`.
    final class Reloader: Sendable {
        let daemon: DeeplinkerProxy
        let continuation: AsyncStream<Event>.Continuation
        /// A read is running; another was asked for meanwhile.
        private let state = LockedValue((running: false, again: false))

        init(daemon: DeeplinkerProxy, continuation: AsyncStream<Event>.Continuation) {
            self.daemon = daemon
            self.continuation = continuation
        }

        func request() {
            let start = state.withLock { state -> Bool in
                if state.running { state.again = true; return false }
                state.running = true
                return true
            }
            guard start else { return }
            Task {
                while true {
                    if let snapshot = try? await TopCommand.snapshot(daemon) { continuation.yield(.reloaded(snapshot)) }
                    let more = state.withLock { state -> Bool in
                        if state.again { state.again = false; return true }
                        state.running = false
                        return false
                    }
                    if !more { return }
                }
            }
        }
    }

    /// `ready` of every route file on the search path.
    static func readiness(configDir: String?) -> [String: String] {
        RouteFiles.registry(configDir: configDir).registry.apps.mapValues { $0.ready.rawValue }
    }

    static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1_000_000) }
}
