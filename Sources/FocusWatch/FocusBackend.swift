/// Which desktop focus source `focus-watch` follows (`--backend`).
public enum FocusBackend: String, Sendable, CaseIterable {
    case auto, x11, sway

    /// The backend `auto` picks: sway when `SWAYSOCK` is set, X11 when `DISPLAY` is set and no
    /// other Wayland compositor runs (XWayland under GNOME or KDE shows only X11 windows); nil when
    /// none applies (GNOME or KDE on Wayland, or no display at all).
    public static func pick(environment: [String: String]) -> FocusBackend? {
        let set = { (name: String) in !(environment[name] ?? "").isEmpty }
        if set("SWAYSOCK") { return .sway }
        if set("WAYLAND_DISPLAY") { return nil }
        if set("DISPLAY") { return .x11 }
        return nil
    }

    /// Why `auto` found nothing, for the error message.
    public static func whyNone(environment: [String: String]) -> String {
        if !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty {
            return "WAYLAND_DISPLAY is set but SWAYSOCK is not: this Wayland compositor (GNOME, KDE) has no focus backend yet"
        }
        return "neither SWAYSOCK, WAYLAND_DISPLAY nor DISPLAY is set: no desktop session to follow"
    }
}
