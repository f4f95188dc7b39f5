/// What makes an app `active` (`ready` in a route file, SPEC §5 and §6 "Readiness").
public enum Readiness: String, Sendable, Hashable, CaseIterable {
    /// The app reports its state itself (lifecycle signals or `SetAppState`).
    case signal
    /// The app is active whenever it owns its bus name; its own lifecycle signals are ignored.
    case name
    /// The app is active while one of its windows has the input focus (`SetFocusedApp`); its own
    /// lifecycle signals count too.
    case focus
}
