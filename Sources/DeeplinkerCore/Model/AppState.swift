/// The lifecycle state of an app as the daemon sees it (SPEC §2).
public enum AppState: String, Sendable, Hashable, CaseIterable, Codable {
    case notRunning = "not-running"
    case inactive
    case active
    case background
}
