import ArgumentParser
import DeeplinkerClient
import DeeplinkerCore

/// `deeplinker approve-domain ID DOMAIN` (SPEC §10 "Approved by the user"): gives an app the links
/// of a domain its route file claims but whose site does not list it, as Android lets a user do.
struct ApproveDomainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve-domain",
        abstract: "Hand an app the links of a domain it claims, though the site does not list it.",
        discussion: """
            Records the verdict "approved" for DOMAIN (one of the app's `domains`, as written there,
            e.g. example.com or *.example.com) with the daemon's SetDomainVerification. The browser
            extension hands the domain's links to the app from the next page load, as for a verified
            domain; `deeplinker verify` never replaces an approval. `revoke-domain` takes it back.
            Prints the claim as the daemon now shows it.

            EXAMPLE:
              deeplinker approve-domain org.example.Mail mail.example.com
            """)

    @Argument(help: "The app id.") var appID: String
    @Argument(help: "A domain from the app's `domains`.") var domain: String
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await DomainApproval.record(.approved, detail: "approved by the user", appID: appID, domain: domain, options: options)
    }
}

/// `deeplinker revoke-domain ID DOMAIN`: takes an approval back; the verdict becomes `unchecked`.
struct RevokeDomainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke-domain",
        abstract: "Take back an approval made with approve-domain.",
        discussion: """
            Records the verdict "unchecked" for DOMAIN: the browser keeps the domain's links from
            the next page load, until `deeplinker verify` finds the app listed by the site or the
            user approves it again. Prints the claim as the daemon now shows it.

            EXAMPLE:
              deeplinker revoke-domain org.example.Mail mail.example.com
            """)

    @Argument(help: "The app id.") var appID: String
    @Argument(help: "A domain from the app's `domains`.") var domain: String
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await DomainApproval.record(.unchecked, detail: "approval revoked by the user", appID: appID, domain: domain, options: options)
    }
}

/// What `approve-domain` and `revoke-domain` share: one `SetDomainVerification`, then the claim.
enum DomainApproval {
    static func record(_ verdict: DomainVerdict, detail: String, appID: String, domain: String, options: GlobalOptions) async throws {
        // The daemon compares claims normalised (lowercase, punycode); so does the printed row.
        let normalised = DomainPattern(parsing: domain)?.description ?? domain
        let rows = try await DaemonSession.run(options) { proxy in
            try await proxy.setDomainVerification(appID: appID, domain: domain, verdict: verdict.rawValue, detail: detail)
            return try await proxy.linkClaims().filter { $0.appID == appID && $0.domain == normalised }.map { DomainChecks.Row($0) }
        }
        if options.json, let row = rows.first {
            Output.json(row)
        } else {
            for line in DomainChecks.lines(rows) { Output.line(line) }
        }
    }
}
