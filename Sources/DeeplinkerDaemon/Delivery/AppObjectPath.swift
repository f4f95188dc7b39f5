/// The object path of an app id (SPEC §1): `/` + the id with `.` → `/` and `-` → `_`.
enum AppObjectPath {
    static func path(for appID: String) -> String {
        "/" + String(appID.map { $0 == "." ? "/" : $0 == "-" ? "_" : $0 })
    }
}
