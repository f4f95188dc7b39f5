import DeeplinkerCore
import FoundationEssentials
import Glibc
import Spawn
import DeeplinkerRouteFiles

/// Where and what `desktop-entry`, `install-desktop` and `uninstall-desktop` read and write
/// (SPEC §8): entries under `$XDG_DATA_HOME/applications` (default `~/.local/share`), defaults in
/// `$XDG_CONFIG_HOME/mimeapps.list` (default `~/.config`).
struct DesktopInstallation {
    let appID: String
    let environment: [String: String]
    /// `$XDG_DATA_HOME/applications`.
    let applications: String
    /// `$XDG_CONFIG_HOME/mimeapps.list`.
    let mimeappsPath: String

    init(appID: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(CLIFailure) {
        guard AppID.isValid(appID) else {
            throw CLIFailure(.usage, "\"\(appID)\" is not a valid app id (a desktop-file id such as com.example.App)")
        }
        guard let applications = DesktopEntryLocator.userApplicationsDirectory(environment: environment) else {
            throw CLIFailure(.failure, "cannot tell where to write desktop entries: neither XDG_DATA_HOME nor HOME is an absolute path")
        }
        let configHome: String
        if let configured = environment["XDG_CONFIG_HOME"], configured.hasPrefix("/") {
            configHome = configured
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            configHome = home + "/.config"
        } else {
            throw CLIFailure(.failure, "cannot find mimeapps.list: neither XDG_CONFIG_HOME nor HOME is an absolute path")
        }
        self.appID = appID
        self.environment = environment
        self.applications = applications
        self.mimeappsPath = configHome + "/mimeapps.list"
    }

    var handlerPath: String { applications + "/" + DesktopEntry.handlerFileName(appID: appID) }
    var entryPath: String { applications + "/" + DesktopEntry.entryFileName(appID: appID) }

    /// The absolute path of `deeplinker` to name in `Exec`: `--exec PATH` (must be absolute), else
    /// the running executable.
    static func executable(option: String?) throws(CLIFailure) -> String {
        if let option {
            guard option.hasPrefix("/") else { throw CLIFailure(.usage, "--exec \(option): the path must be absolute") }
            return option
        }
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), path.hasPrefix("/") {
            return path
        }
        let argv0 = CommandLine.arguments[0]
        if argv0.hasPrefix("/") { return argv0 }
        throw CLIFailure(.failure, "cannot find the path of this program; pass --exec PATH")
    }

    static func read(_ path: String) -> String? {
        TextFile.lenientText(atPath: path)
    }

    /// The app's own installed entry, found the way launchers find it.
    var installed: LocatedDesktopEntry? {
        DesktopEntryLocator.installedEntry(appID: appID, environment: environment, read: Self.read)
    }

    /// What `install-desktop` writes for the app's own entry.
    func appEntry(config: AppConfig, shortcuts: [String]?, executable: String) -> DesktopFile {
        DesktopEntry.appEntry(config: config, installed: installed, shortcuts: shortcuts, executable: executable)
    }

    /// Why the app entry cannot be written, if a file Deeplinker did not write is in its place
    /// (the app installed its own entry in the user's data home).
    var entryBlocker: String? {
        guard let text = Self.read(entryPath) else { return nil }
        if let file = try? DesktopFile(parsing: text), DesktopEntryLocator.isDeeplinkerEntry(file) { return nil }
        return "left \(entryPath) alone: it is the app's own entry, not one deeplinker wrote"
    }

    /// Whether the file at `path` is one Deeplinker wrote.
    func isOurs(_ path: String) -> Bool {
        guard let text = Self.read(path), let file = try? DesktopFile(parsing: text) else { return false }
        return DesktopEntryLocator.isDeeplinkerEntry(file)
    }

    /// The current mimeapps.list (empty when absent); a file that does not parse is a failure
    /// naming its line and column.
    func mimeApps() throws(CLIFailure) -> MimeAppsList {
        guard let text = Self.read(mimeappsPath) else { return MimeAppsList() }
        do {
            return try MimeAppsList(parsing: text)
        } catch {
            throw CLIFailure(.failure, "\(mimeappsPath):\(error.description)")
        }
    }

    /// Writes `text` to `path` atomically, creating the directory.
    func write(_ text: String, to path: String) throws(CLIFailure) {
        do {
            try FileManager.default.createDirectory(
                atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIFailure(.failure, "cannot write \(path): \(error)")
        }
    }

    /// Removes `path`.
    func remove(_ path: String) throws(CLIFailure) {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw CLIFailure(.failure, "cannot remove \(path): \(error)")
        }
    }

    /// Removes a `mimeinfo.cache` that lists nothing (left by `update-desktop-database` once our
    /// entries are gone), so that uninstalling leaves the directory as it was.
    func removeEmptyCache() {
        let cache = applications + "/mimeinfo.cache"
        guard let text = Self.read(cache), text.split(whereSeparator: \.isWhitespace) == ["[MIME", "Cache]"] else { return }
        try? FileManager.default.removeItem(atPath: cache)
    }

    /// Refreshes `mimeinfo.cache` in the applications directory with `update-desktop-database`
    /// when it is on PATH; returns whether it ran and succeeded.
    @discardableResult
    func refreshCache() -> Bool {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        guard let tool = path.split(separator: ":").map({ "\($0)/update-desktop-database" })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }),
              FileManager.default.fileExists(atPath: applications) else { return false }
        // Its output goes to stderr: the CLI's stdout is for what the command reports.
        guard let child = try? ChildProcess(
            executable: tool, arguments: [applications], standardInput: .null, standardOutput: .descriptor(STDERR_FILENO))
        else { return false }
        let termination = child.waitUntilExit()
        if termination != .exited(0) {
            Output.error("deeplinker: update-desktop-database \(applications) \(termination)")
        }
        return termination == .exited(0)
    }
}
