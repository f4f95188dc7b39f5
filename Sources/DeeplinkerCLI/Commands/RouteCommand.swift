import ArgumentParser
import DeeplinkerClient
import DeeplinkerCore
import DeeplinkerProtocol

/// `deeplinker route ID URL`: which route a URL takes. Through the daemon's `ResolveURL` when it
/// runs, followed by every route's verdict from the local route files when they have the app;
/// otherwise (or with `--offline`) from the route files alone.
struct RouteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "Explain how a URL routes for an app (dry run: nothing is stored).",
        discussion: """
            ID may be '' to find the app by the URL. Without --offline the running
            daemon resolves the URL, then every route's verdict is shown from the
            route files (--config-dir DIR, else the search path) if they have the
            app; when the daemon is not running, the route files alone answer.

            EXAMPLES:
              deeplinker route com.bestrecipes.App bestrecipes://recipe/12
              deeplinker route '' 'https://bestrecipes.com/recipe?id=12' --offline --config-dir Config/apps
            """)

    @Argument(help: "The app id ('' = found by the URL).") var appID: String
    @Argument(help: "The URL.") var url: String
    @Flag(name: .long, help: "Read the route files even if the daemon runs.") var offline = false
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        if !offline {
            if await DaemonSession.isRunning(options) {
                let resolved: ResolvedURL
                do {
                    resolved = try await DaemonSession.run(options) { try await $0.resolveURL(appID: appID, url: url) }
                } catch {
                    // The daemon's refusal decides the exit status; the files say why, if they can.
                    if !options.json { explainFromFiles(appID: appID, afterAnswer: false) }
                    throw error
                }
                let opens = openURI(resolved)
                if options.json { return Output.json(ResolutionJSON(resolved, opens: opens)) }
                Output.line("URL \(url)")
                Output.line("app \(resolved.appID)")
                Output.line("result: \(Output.route(resolved.target, resolved.parameters)) via \(resolved.routePattern) (resolved by the daemon)")
                switch opens {
                case .success(let uri): Output.line("opens: \(uri)")
                case .failure(let refusal): Output.line("opens nothing: \(refusal.detail)")
                case nil: break
                }
                explainFromFiles(appID: resolved.appID, afterAnswer: true)
                return
            }
            Output.error("the Deeplinker daemon is not running; explaining from the route files")
        }
        try explainOffline()
    }

    /// For an app the route files give `delivery = "open"`: the URI `Open` would get for the
    /// daemon's route (the daemon normalised the URL the same way).
    private func openURI(_ resolved: ResolvedURL) -> Result<String, OpenRefusal>? {
        let (registry, _, _) = RouteFiles.registry(configDir: options.configDir)
        guard let config = registry.apps[resolved.appID], let validated = try? ValidatedURL(url) else { return nil }
        let route = ResolvedRoute(
            appID: resolved.appID, route: Route(target: resolved.target, parameters: resolved.parameters, source: .url), url: validated.normalized)
        return config.openURI(for: route)
    }

    /// Every route's verdict from the local route files, after the daemon's answer; nothing when
    /// the files do not have the app (the daemon may read another directory).
    private func explainFromFiles(appID: String, afterAnswer: Bool) {
        let (registry, _, directories) = RouteFiles.registry(configDir: options.configDir)
        guard appID.isEmpty || registry.apps[appID] != nil else { return }
        if afterAnswer { Output.line("") }
        Output.line("every route's verdict, from the route files in \(directories.joined(separator: ":")):")
        // After an answer its URL and app lines were printed already.
        let lines = registry.explainURL(appID: appID, url: url).lines.drop { afterAnswer && ($0.hasPrefix("URL ") || $0.hasPrefix("app ")) }
        for line in lines { Output.line("  " + line) }
    }

    private func explainOffline() throws {
        let (registry, errors, directories) = RouteFiles.registry(configDir: options.configDir)
        if !appID.isEmpty, registry.apps[appID] == nil {
            if let error = errors.first(where: { RouteFiles.appID(ofFile: $0.file) == appID }) {
                throw CLIFailure(.configError, error.description, errorName: DeeplinkerErrorName.invalidConfig.dbusName)
            }
            throw CLIFailure(
                .unknownApp, "UnknownApp: no route file \(appID).toml in \(directories.joined(separator: ", "))",
                errorName: DeeplinkerErrorName.unknownApp.dbusName)
        }
        let explanation = registry.explainURL(appID: appID, url: url)
        if options.json {
            Output.json(ExplanationJSON(explanation))
        } else {
            for line in explanation.lines { Output.line(line) }
        }
        if case .failure(let error) = explanation.result {
            throw ExitCode((ExitStatus.forDeeplinkerError(named: error.name) ?? .failure).rawValue)
        }
    }
}

/// `route --json` when the daemon resolved the URL.
struct ResolutionJSON: Codable {
    var source = "daemon"
    var appID: String
    var target: String
    var parameters: [String: String]
    var routePattern: String
    /// `delivery = "open"`: the URI `Open` would get, or why none.
    var openURI: String?
    var openError: String?

    enum CodingKeys: String, CodingKey {
        case source, target, parameters
        case appID = "app_id"
        case routePattern = "route_pattern"
        case openURI = "open_uri"
        case openError = "open_error"
    }

    init(_ r: ResolvedURL, opens: Result<String, OpenRefusal>?) {
        appID = r.appID
        target = r.target
        parameters = r.parameters
        routePattern = r.routePattern
        switch opens {
        case .success(let uri): openURI = uri
        case .failure(let refusal): openError = refusal.detail
        case nil: break
        }
    }
}

/// `route --json` from the route files: every route's verdict and the outcome.
struct ExplanationJSON: Codable {
    struct Candidate: Codable {
        var pattern: String
        var target: String?
        var priority: Int
        var exclude: Bool
        /// `selected`, `outranked` or `no-fit`.
        var verdict: String
        var reason: String?
    }

    var source = "route-files"
    var appID: String
    var url: String
    var segments: [String]
    var claimProblem: String?
    var candidates: [Candidate]
    var target: String?
    var parameters: [String: String]?
    var routePattern: String?
    var error: String?
    var message: String?
    var openURI: String?
    var openError: String?

    enum CodingKeys: String, CodingKey {
        case source, url, segments, candidates, target, parameters, error, message
        case openURI = "open_uri"
        case openError = "open_error"
        case appID = "app_id"
        case claimProblem = "claim_problem"
        case routePattern = "route_pattern"
    }

    init(_ e: RouteExplanation) {
        appID = e.appID
        url = e.url
        segments = e.segments
        claimProblem = e.claimProblem
        candidates = e.candidates.map { c in
            let (verdict, reason): (String, String?) = switch c.verdict {
            case .selected: ("selected", nil)
            case .outranked(let by): ("outranked", "'\(by)' comes first")
            case .noFit(let why): ("no-fit", why)
            }
            return Candidate(pattern: c.pattern, target: c.target, priority: c.priority, exclude: c.exclude, verdict: verdict, reason: reason)
        }
        switch e.result {
        case .success(let r):
            target = r.route.target
            parameters = r.route.parameters
            routePattern = r.routePattern
        case .failure(let err):
            error = DeeplinkerNames.errorPrefix + err.name
            message = err.message
        }
        switch e.openURI {
        case .success(let uri): openURI = uri
        case .failure(let refusal): openError = refusal.detail
        case nil: break
        }
    }
}
