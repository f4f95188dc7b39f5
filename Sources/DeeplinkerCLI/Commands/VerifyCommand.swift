import ArgumentParser
import DeeplinkerClient
import DeeplinkerCore

/// `deeplinker verify [ID]` (SPEC §10): checks that each claimed domain lists its app in
/// `https://<host>/.well-known/deeplinker-app-links.json` and records the verdicts in the daemon.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the apps' domains against their association files and record the verdicts.",
        discussion: """
            For each domain in an app's `domains` (every app, or only ID), fetches
            https://HOST/.well-known/deeplinker-app-links.json (for *.HOST the file on HOST) over HTTPS
            on port 443 with the system's trust store: no redirect is followed, at most 128 KiB, 10 s.
            The file must list the app: {"apps": [{"id": "ID", "subdomains": true}]} ("subdomains"
            is needed for a *.HOST claim). Each verdict is recorded in the daemon:
              verified     the file lists the app
              not-listed   the file does not list it, or is not JSON of that form
              unreachable  DNS, TCP, TLS or HTTP failure (a redirect, a status other than 200,
                           a file over 128 KiB); an earlier verified verdict is kept for 30 days
            A domain the user approved (`approve-domain`) is not fetched and stays approved.
            Prints one line per domain: app, domain, verdict (as the daemon now shows it), detail.
            Exits 14 when a domain is neither verified nor approved.

            EXAMPLE:
              deeplinker verify com.bestrecipes.App
            """)

    @Argument(help: "Only this app (default: every app with domains).") var appID: String?
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let rows: [DomainChecks.Row] = try await DaemonSession.run(options) { proxy in
            let known = try await proxy.listApps()
            if let appID, !known.contains(appID) {
                throw CLIFailure(.unknownApp, "unknown app '\(appID)': no route file declares it")
            }
            // The user's approval stands whatever the site lists: such a domain is not fetched.
            let claims = try await proxy.linkClaims().filter {
                (appID == nil || $0.appID == appID) && $0.verdict != DomainVerdict.approved.rawValue
            }
            let outcomes = try await DomainChecks.checkAndRecord(claims.map { ($0.appID, $0.domain) }, proxy: proxy)
            let checks = Dictionary(outcomes.map { ("\($0.appID) \($0.domain)", $0.verdict.rawValue) }) { a, _ in a }
            return try await proxy.linkClaims().filter { appID == nil || $0.appID == appID }.map {
                DomainChecks.Row($0, check: checks["\($0.appID) \($0.domain)"])
            }
        }
        if options.json {
            Output.json(rows)
        } else if rows.isEmpty {
            Output.line(appID.map { "\($0) claims no domains" } ?? "no app claims a domain")
        } else {
            for line in DomainChecks.lines(rows) { Output.line(line) }
        }
        let failed = rows.filter { !DomainVerdict.handsOver($0.verdict) }
        if !failed.isEmpty {
            throw CLIFailure(
                .domainNotVerified,
                "\(failed.count) of \(rows.count) domain\(rows.count == 1 ? " is" : "s are") not verified: "
                    + failed.map { "\($0.appID) \($0.domain)" }.joined(separator: ", "))
        }
    }
}
