/// How a waiting route says that its app's launch did not take (SPEC §6): its `detail` is
/// ``detail(_:)``, which `status`, `top` and `doctor` recognise by ``detailPrefix``.
public enum LaunchFailure {
    /// What every such `detail` starts with.
    public static let detailPrefix = "waiting on an app that did not start: "

    /// The `detail` for a launch that did not take, `reason` saying how it was launched and what
    /// became of it.
    public static func detail(_ reason: String) -> String { detailPrefix + reason }

    /// The reason in a route's `detail`, or nil when the detail is about something else.
    public static func reason(inDetail detail: String) -> String? {
        detail.hasPrefix(detailPrefix) ? String(detail.dropFirst(detailPrefix.count)) : nil
    }
}
