import ArgumentParser
import DeeplinkerCore
import FoundationEssentials

/// `deeplinker uninstall-desktop ID` (SPEC §8): removes what `install-desktop` wrote for the app —
/// the handler entry, the app entry when deeplinker wrote it, and the mimeapps.list defaults that
/// name the handler — and nothing else. Running it again does nothing.
struct UninstallDesktopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall-desktop",
        abstract: "Remove the desktop entries and scheme defaults install-desktop wrote for the app.",
        discussion: """
            Removes $XDG_DATA_HOME/applications/ID.deeplinker.desktop, ID.desktop there when
            deeplinker wrote it (never the app's own), and the handler from every default in
            $XDG_CONFIG_HOME/mimeapps.list (other lines and previous defaults are kept), then
            runs update-desktop-database (an empty mimeinfo.cache is removed). Launchers then see
            the app's installed entry again. Needs no route file.

            EXAMPLE:
              deeplinker uninstall-desktop com.bestrecipes.App
            """)

    @Argument(help: "The app id.") var appID: String
    @OptionGroup var options: GlobalOptions

    struct JSONOutput: Codable {
        var removed: [String]
        var defaults: [String]
    }

    func run() async throws {
        let installation = try DesktopInstallation(appID: appID)
        var removed: [String] = []
        for path in [installation.handlerPath, installation.entryPath] where installation.isOurs(path) {
            try installation.remove(path)
            removed.append(path)
        }
        var mimeApps = try installation.mimeApps()
        let defaults = mimeApps.removeDefault(DesktopEntry.handlerFileName(appID: appID))
        if !defaults.isEmpty { try installation.write(mimeApps.rendered(), to: installation.mimeappsPath) }
        if !removed.isEmpty || !defaults.isEmpty {
            installation.refreshCache()
            installation.removeEmptyCache()
        }

        if options.json { return Output.json(JSONOutput(removed: removed, defaults: defaults)) }
        for path in removed { Output.line("removed \(path)") }
        for mimeType in defaults { Output.line("removed default handler for \(mimeType)") }
        if removed.isEmpty && defaults.isEmpty { Output.line("nothing to remove for \(appID)") }
    }
}
