import CXCB
import FoundationEssentials

/// Follows EWMH `_NET_ACTIVE_WINDOW` on an X display: PropertyNotify on the root window, no
/// polling. One blocking thread owns the connection.
public final class X11FocusSource: @unchecked Sendable {
    /// The display name as given (`DISPLAY`), for messages.
    public let display: String
    private let connection: OpaquePointer
    private let root: xcb_window_t
    private let activeWindow: xcb_atom_t
    private let gtkApplicationID: xcb_atom_t
    private let wmPID: xcb_atom_t
    private var buffer = [UInt8](repeating: 0, count: 65536)

    /// Connects to `display` (nil: `DISPLAY`) and subscribes to the root window's property changes.
    public init(display: String?) throws(FocusWatchError) {
        let name = display ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        self.display = name
        guard !name.isEmpty else { throw FocusWatchError("no X display: DISPLAY is not set") }
        var screen: Int32 = 0
        guard let c = xcb_connect(name, &screen), xcb_connection_has_error(c) == 0 else {
            throw FocusWatchError("cannot connect to the X display \(name)")
        }
        connection = c
        root = cxcb_root(c, screen)
        activeWindow = cxcb_intern(c, "_NET_ACTIVE_WINDOW", 0)
        gtkApplicationID = cxcb_intern(c, "_GTK_APPLICATION_ID", 0)
        wmPID = cxcb_intern(c, "_NET_WM_PID", 0)
        guard root != 0, activeWindow != 0, cxcb_select_property_changes(c, root) == 0 else {
            xcb_disconnect(c)
            throw FocusWatchError("cannot watch the root window of the X display \(name)")
        }
    }

    deinit {
        xcb_disconnect(connection)
    }

    /// Whether the window manager publishes the active window at all (Xvfb alone does not).
    public var windowManagerReportsFocus: Bool {
        var format: Int32 = 0
        let supported = cxcb_intern(connection, "_NET_SUPPORTED", 1)
        guard supported != 0 else { return false }
        let length = buffer.withUnsafeMutableBytes { cxcb_property(connection, root, supported, $0.baseAddress, Int32($0.count), &format) }
        guard length > 0, format == 32 else { return false }
        return buffer.withUnsafeBytes { bytes in
            stride(from: 0, to: Int(length) - 3, by: 4).contains { bytes.load(fromByteOffset: $0, as: UInt32.self) == activeWindow }
        }
    }

    /// The window that has the focus now, nil when none does (or no window manager says).
    public func focusedWindow() -> FocusedWindow? {
        guard let window = activeWindowID() else { return nil }
        var info = FocusedWindow()
        if let id = string(window, gtkApplicationID), !id.isEmpty { info.applicationID = id }
        if let pid = cardinal(window, wmPID), pid > 0, pid <= UInt32(Int32.max) { info.pid = Int32(pid) }
        if let bytes = bytes(window, cxcb_wm_class()) {
            info.wmClass = bytes.split(separator: 0, omittingEmptySubsequences: false).prefix(2).map { String(decoding: $0, as: UTF8.self) }
        }
        return info
    }

    /// Blocks, calling `onChange` with the focused window at once and after every change of
    /// `_NET_ACTIVE_WINDOW`, until the X server goes away; returns why.
    public func run(_ onChange: (FocusedWindow?) -> Void) -> FocusWatchError {
        onChange(focusedWindow())
        var window: xcb_window_t = 0
        var atom: xcb_atom_t = 0
        while true {
            switch cxcb_next_property_notify(connection, &window, &atom) {
            case -1:
                return FocusWatchError("the X display \(display) went away (X connection error \(xcb_connection_has_error(connection)))")
            case 1 where window == root && atom == activeWindow:
                onChange(focusedWindow())
            default:
                continue
            }
        }
    }

    private func activeWindowID() -> xcb_window_t? {
        guard let id = cardinal(root, activeWindow), id != 0 else { return nil }
        return id
    }

    private func bytes(_ window: xcb_window_t, _ property: xcb_atom_t) -> ArraySlice<UInt8>? {
        guard property != 0 else { return nil }
        var format: Int32 = 0
        let length = buffer.withUnsafeMutableBytes { cxcb_property(connection, window, property, $0.baseAddress, Int32($0.count), &format) }
        guard length >= 0 else { return nil }
        return buffer[0..<Int(length)]
    }

    private func string(_ window: xcb_window_t, _ property: xcb_atom_t) -> String? {
        bytes(window, property).map { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The first 32-bit value of a property (a window id, a pid).
    private func cardinal(_ window: xcb_window_t, _ property: xcb_atom_t) -> UInt32? {
        guard let value = bytes(window, property), value.count >= 4 else { return nil }
        return value.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }
}
