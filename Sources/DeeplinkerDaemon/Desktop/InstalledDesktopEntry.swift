import DeeplinkerCore
import Foundation

/// The desktop entry `deeplinker install-desktop` wrote for an app, if any:
/// `$XDG_DATA_HOME/applications/ID.desktop` (default `~/.local/share`).
struct InstalledDesktopEntry {
    let path: String

    /// The entry's path for `appID`; nil when the environment names no data home (tests, odd set-ups).
    init?(appID: String, environment: [String: String]) {
        guard let path = DesktopEntry.installedPath(appID: appID, environment: environment) else { return nil }
        self.path = path
    }

    /// Rewrites the installed entry's actions to the published `shortcuts` (SPEC §8); does nothing
    /// when no entry is installed. Returns a description of the failure, if any.
    func rewriteActions(config: AppConfig, shortcuts: [String]) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = DesktopEntry.replacingActions(in: String(decoding: data, as: UTF8.self), config: config, shortcuts: shortcuts)
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            return nil
        } catch {
            return "cannot rewrite \(path): \(error.localizedDescription)"
        }
    }
}
