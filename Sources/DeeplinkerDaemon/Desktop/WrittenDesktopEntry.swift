import DeeplinkerCore
import FoundationEssentials
import Glibc
import DeeplinkerRouteFiles

/// The app entry `deeplinker install-desktop` wrote in `$XDG_DATA_HOME/applications/ID.desktop`
/// (an override of the app's installed entry, or a minimal entry), kept current by the daemon
/// (SPEC §8): `SetShortcuts` rewrites its actions; start-up and `Reload` re-derive it when the
/// installed entry it came from changed. Entries Deeplinker did not write are never touched.
struct WrittenDesktopEntry {
    let appID: String
    let environment: [String: String]

    /// Reads a file as UTF-8 text, nil when it cannot be read.
    static func read(_ path: String) -> String? {
        TextFile.lenientText(atPath: path)
    }

    /// The written entry, if there is one.
    var current: LocatedDesktopEntry? {
        DesktopEntryLocator.writtenEntry(appID: appID, environment: environment, read: Self.read)
    }

    /// Rewrites the written entry's actions to the published `shortcuts`; does nothing when no
    /// entry was written. Returns a description of the failure, if any.
    func rewriteActions(config: AppConfig, shortcuts: [String]) -> String? {
        guard let written = current else { return nil }
        let file = DesktopEntry.replacingActions(in: written.file, config: config, shortcuts: shortcuts)
        return Self.write(file.rendered(), over: written)
    }

    /// What `install-desktop` would write now for the app's own entry, with the written entry's
    /// program and the `published` shortcuts (nil: those the written entry lists). Writes it when it
    /// differs from what is there. Returns what happened (nil: nothing written or nothing changed).
    func refresh(config: AppConfig, published: [String]?) -> Result<String, RefreshFailure>? {
        guard let written = current,
              let executable = DesktopEntry.executable(of: written.file)
        else { return nil }
        let installed = DesktopEntryLocator.installedEntry(appID: appID, environment: environment, read: Self.read)
        let shortcuts = published ?? DesktopEntry.shortcutTypes(in: written.file)
        let desired = DesktopEntry.appEntry(config: config, installed: installed, shortcuts: shortcuts, executable: executable)
        let text = desired.rendered()
        guard text != written.file.rendered() else { return nil }
        if let failure = Self.write(text, over: written) { return .failure(RefreshFailure(message: failure)) }
        if let installed { return .success("re-derived \(written.path) from \(installed.path)") }
        return .success("rewrote \(written.path) as a minimal entry: \(appID) has no installed desktop entry")
    }

    /// Why a refresh could not write.
    struct RefreshFailure: Error {
        let message: String
    }

    private static func write(_ text: String, over entry: LocatedDesktopEntry) -> String? {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: entry.path), options: .atomic)
            return nil
        } catch {
            return "cannot rewrite \(entry.path): \(reason(error))"
        }
    }

    /// The system's reason for a failed write ("Permission denied"), else the error as it prints.
    private static func reason(_ error: any Error) -> String {
        let posix = (error as? CocoaError)?.underlying as? POSIXError ?? error as? POSIXError
        return posix.map { String(cString: strerror($0.code.rawValue)) } ?? String(describing: error)
    }
}
