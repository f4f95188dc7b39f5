import DeeplinkerCore

/// The app id rule of DeeplinkerCore, under the name this module uses.
enum AppIDRules {
    static func isValid(_ id: String) -> Bool { AppID.isValid(id) }
}
