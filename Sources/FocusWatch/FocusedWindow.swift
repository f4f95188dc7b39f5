/// What a focus backend knows about the window that has the input focus.
public struct FocusedWindow: Sendable, Hashable {
    /// `_GTK_APPLICATION_ID` (X11) or the Wayland `app_id` (sway).
    public var applicationID: String?
    /// `_NET_WM_PID` (X11) or sway's `pid`.
    public var pid: Int32?
    /// `WM_CLASS` as (instance, class), or XWayland's class under sway.
    public var wmClass: [String]

    public init(applicationID: String? = nil, pid: Int32? = nil, wmClass: [String] = []) {
        self.applicationID = applicationID
        self.pid = pid
        self.wmClass = wmClass
    }
}
