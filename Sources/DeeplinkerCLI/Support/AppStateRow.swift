/// An app and its lifecycle state, as `apps` and `state` print it with `--json`.
struct AppStateRow: Codable {
    var appID: String
    var state: String
    /// `apps --json`: the app's claimed domains and their verdicts (SPEC §10).
    var domains: [Domain]?

    /// One claimed domain, as `GetLinkClaims` shows it.
    struct Domain: Codable {
        var domain: String
        var verdict: String
        var detail: String
        var checkedAtMicroseconds: Int64

        enum CodingKeys: String, CodingKey {
            case domain, verdict, detail
            case checkedAtMicroseconds = "checked_at_usec"
        }
    }

    enum CodingKeys: String, CodingKey {
        case appID = "app_id"
        case state, domains
    }
}
