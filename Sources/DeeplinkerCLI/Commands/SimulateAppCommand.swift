import ArgumentParser
import DBusKit
import DeeplinkerClient
import FoundationEssentials
import TaskThreads

/// `deeplinker simulate-app ID`: acts as the app, built on `DeeplinkerClient`: owns the app's
/// name, answers `ActivateAction` and `Activate`, prints each route and activation, and changes state on flags and keys.
struct SimulateAppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate-app",
        abstract: "Act as the app: own its bus name, print each route delivered, change state on keys.",
        discussion: """
            Keys (each followed by Enter) on stdin:
              a  became active      r  will resign active
              b  entered background f  will enter foreground
              q  quit
            The end of stdin does not quit (run it in the background with </dev/null).

            EXAMPLES:
              deeplinker simulate-app com.bestrecipes.App
              deeplinker simulate-app com.bestrecipes.App --active --exit-after 1
            """)

    @Argument(help: "The app id to act as.") var appID: String
    @Flag(name: .long, help: "Become active once started.") var active = false
    @Flag(name: .long, help: "Enter the background once started.") var background = false
    @Flag(name: .long, help: "Refuse every route (error reply: the route stays pending).") var reject = false
    @Option(name: .customLong("exit-after"), help: ArgumentHelp("Quit after acknowledging N routes.", valueName: "N"))
    var exitAfter: Int?
    @OptionGroup var options: GlobalOptions

    /// A line of `--json` output.
    struct Event: Codable {
        var event: String
        var appID: String
        var state: String?
        var uniqueName: String?
        var route: IncomingRoute?
        var duplicate: Bool?
        var activation: ActivationRequest?

        enum CodingKeys: String, CodingKey {
            case event, state, route, duplicate, activation
            case appID = "app_id"
            case uniqueName = "unique_name"
        }
    }

    enum Input: Sendable {
        case key(Character)
        case acknowledged
    }

    func run() async throws {
        let app: DeeplinkerApp
        do {
            app = try DeeplinkerApp(appID: appID, busAddress: options.busAddress)
        } catch {
            throw CLIFailure(.daemonNotRunning, "cannot connect to the bus: \(error.message)", errorName: error.name)
        }
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        let json = options.json
        let appID = self.appID
        let reject = self.reject
        app.onAcknowledged { route, duplicate in
            if json {
                Output.json(Event(event: duplicate ? "duplicate" : "route", appID: appID, route: route, duplicate: duplicate))
            } else if duplicate {
                Output.line("ignored redelivery of \(route.invocationID) (already handled)")
            } else {
                Output.line(Self.describe(route))
            }
            if !duplicate { continuation.yield(.acknowledged) }
        }
        app.onDaemonAppeared { owner in
            if json {
                Output.json(Event(event: "daemon", appID: appID, uniqueName: owner))
            } else {
                Output.line("daemon appeared as \(owner); re-announced state")
            }
        }
        let activate: DeeplinkerApp.ActivateHandler = { request in
            if json {
                Output.json(Event(event: "activate", appID: appID, activation: request))
            } else {
                Output.line(Self.describe(request))
            }
        }
        do {
            try await app.start(activate: activate) { route in
                if reject {
                    if json {
                        Output.json(Event(event: "refused", appID: appID, route: route))
                    } else {
                        Output.line("refused \(Self.describe(route))")
                    }
                    throw RouteRejection(message: "simulate-app --reject refuses every route")
                }
            }
        } catch {
            throw CLIFailure(ExitStatus.forDBusError(error), "cannot act as \(appID): \(error.message)", errorName: error.name)
        }
        if json {
            Output.json(Event(event: "ready", appID: appID, uniqueName: app.connection.uniqueName))
        } else {
            Output.line("simulating \(appID) as \(app.connection.uniqueName) at \(app.objectPath)")
            Output.line("keys: a = active, r = resign active, b = background, f = foreground, q = quit")
        }
        if background { change(app, "b") }
        if active { change(app, "a") }
        readKeys(into: continuation)

        var acknowledged = 0
        loop: for await input in inputs {
            switch input {
            case .key("q"): break loop
            case .key(let key): change(app, key)
            case .acknowledged:
                acknowledged += 1
                if let exitAfter, acknowledged >= exitAfter { break loop }
            }
        }
        await app.stop()
    }

    /// One line per route: what a person scanning the output needs.
    static func describe(_ route: IncomingRoute) -> String {
        var parts = ["route \(Output.route(route.target, route.parameters))", "source=\(route.source)"]
        if !route.invocationID.isEmpty { parts.append("invocation=\(route.invocationID)") }
        if let url = route.url { parts.append("url=\(url)") }
        if let action = route.action { parts.append("action=\(action)") }
        if let token = route.activationToken { parts.append("activation-token=\(token)") }
        if let id = route.desktopStartupID { parts.append("desktop-startup-id=\(id)") }
        if route.isRedelivery { parts.append("redelivery") }
        return parts.joined(separator: " ")
    }

    /// One line per `Activate`: a real app would present its window now.
    static func describe(_ request: ActivationRequest) -> String {
        var parts = ["activate (present the window)"]
        if let id = request.invocationID { parts.append("invocation=\(id)") }
        if let token = request.activationToken { parts.append("activation-token=\(token)") }
        if let id = request.desktopStartupID { parts.append("desktop-startup-id=\(id)") }
        return parts.joined(separator: " ")
    }

    private func change(_ app: DeeplinkerApp, _ key: Character) {
        let state: String
        switch key {
        case "a": app.becameActive(); state = "active"
        case "r": app.willResignActive(); state = "inactive"
        case "b": app.didEnterBackground(); state = "background"
        case "f": app.willEnterForeground(); state = "inactive"
        default: return
        }
        if options.json {
            Output.json(Event(event: "state", appID: appID, state: state))
        } else {
            Output.line("state \(state)")
        }
    }

    /// Reads stdin on a thread of its own; every non-space character is a key.
    private func readKeys(into continuation: AsyncStream<Input>.Continuation) {
        NamedThread.start(name: "keys") {
            while let line = readLine() {
                for character in line where !character.isWhitespace { continuation.yield(.key(character)) }
            }
        }
    }
}
