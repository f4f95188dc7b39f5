/// An app and its lifecycle state, as `apps` and `state` print it with `--json`.
struct AppStateRow: Codable {
    var appID: String
    var state: String

    enum CodingKeys: String, CodingKey {
        case appID = "app_id"
        case state
    }
}
