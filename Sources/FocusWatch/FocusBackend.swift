/// Which desktop focus source `focus-watch` follows (`--backend`).
public enum FocusBackend: String, Sendable, CaseIterable {
    case auto, x11, sway, kwin

    /// What `auto` finds in a session.
    public enum Choice: Sendable, Equatable {
        case backend(FocusBackend)
        /// GNOME Shell: its extension `focus@deeplinker.org` reports the focus, not focus-watch.
        case gnomeExtension
        /// Nothing to follow; the text says why.
        case none(String)
    }

    /// The backend `auto` picks: sway when `SWAYSOCK` is set; KWin on KDE Plasma
    /// (`XDG_CURRENT_DESKTOP` names KDE, or `org.kde.KWin` is on the bus), Wayland or X11; none on
    /// GNOME (its extension reports); X11 when `DISPLAY` is set and no other Wayland compositor runs
    /// (XWayland shows only X11 windows).
    public static func choose(environment: [String: String], kwinOnBus: Bool) -> Choice {
        let set = { (name: String) in !(environment[name] ?? "").isEmpty }
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.uppercased() }
        if set("SWAYSOCK") { return .backend(.sway) }
        if desktops.contains("KDE") || kwinOnBus { return .backend(.kwin) }
        if desktops.contains("GNOME") { return .gnomeExtension }
        if set("WAYLAND_DISPLAY") {
            return .none("WAYLAND_DISPLAY is set but this compositor is neither sway, KDE Plasma nor GNOME Shell (XDG_CURRENT_DESKTOP=\(environment["XDG_CURRENT_DESKTOP"] ?? "")): it has no focus reporter")
        }
        if set("DISPLAY") { return .backend(.x11) }
        return .none("neither SWAYSOCK, WAYLAND_DISPLAY nor DISPLAY is set: no desktop session to follow")
    }

    /// The backend `auto` picks from the environment alone (no bus): nil when none applies.
    public static func pick(environment: [String: String]) -> FocusBackend? {
        if case .backend(let backend) = choose(environment: environment, kwinOnBus: false) { return backend }
        return nil
    }

    /// Why `auto` found nothing, for the error message.
    public static func whyNone(environment: [String: String]) -> String {
        switch choose(environment: environment, kwinOnBus: false) {
        case .none(let reason): reason
        case .gnomeExtension: "GNOME Shell: its extension focus@deeplinker.org reports the focus (deeplinker install-gnome-extension)"
        case .backend(let backend): "auto picks \(backend.rawValue)"
        }
    }
}
