import ArgumentParser
import FoundationEssentials

/// Which browsers `install-browser` and `uninstall-browser` act on.
enum BrowserChoice: String, ExpressibleByArgument, CaseIterable {
    case chromium, chrome, firefox, all

    var browsers: [BrowserHosts.Browser] {
        switch self {
        case .chromium: [.chromium]
        case .chrome: [.chrome]
        case .firefox: [.firefox]
        case .all: BrowserHosts.Browser.allCases
        }
    }
}

/// `deeplinker install-browser` (SPEC §10): the native messaging host manifests and their wrapper.
struct InstallBrowserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-browser",
        abstract: "Register the native messaging host with Chromium, Chrome and Firefox.",
        discussion: """
            Writes the host manifest org.deeplinker.native_host.json for each browser:
              chromium  $XDG_CONFIG_HOME/chromium/NativeMessagingHosts/
              chrome    $XDG_CONFIG_HOME/google-chrome/NativeMessagingHosts/
              firefox   ~/.mozilla/native-messaging-hosts/
            each allowing only the Deeplinker extension and naming the wrapper
            $XDG_DATA_HOME/deeplinker/native-host, which runs `deeplinker native-host` by the
            absolute path of this program (or --exec PATH). Then load Browser/extension/ in the
            browser (docs/browser.md). Undo with `deeplinker uninstall-browser`.
            With the deeplinker package installed, the hosts are already there for every user
            (/etc/chromium/, /etc/opt/chrome/, /usr/lib/mozilla/native-messaging-hosts/); this
            command then says so, and its user copies take precedence.

            EXAMPLE:
              deeplinker install-browser --browser chromium
            """)

    @Option(name: .long, help: ArgumentHelp("chromium, chrome, firefox or all.", valueName: "BROWSER"))
    var browser: BrowserChoice = .all
    @Option(name: .customLong("exec"), help: ArgumentHelp("The absolute path of deeplinker for the wrapper to run (default: this program).", valueName: "PATH"))
    var executable: String?
    @OptionGroup var options: GlobalOptions

    struct JSONOutput: Codable {
        var wrapper: String
        var manifests: [String: String]
        /// Browsers whose host a system-wide manifest (the package's) already provides, and its path.
        var systemWide: [String: String]
    }

    func run() throws {
        let hosts = try BrowserHosts.current()
        let executable = try DesktopInstallation.executable(option: executable)
        try BrowserHosts.write(BrowserHosts.wrapper(executable: executable), to: hosts.wrapperPath, executable: true)
        let systemWide = BrowserHosts.systemWide(browser.browsers)
        var output = JSONOutput(
            wrapper: hosts.wrapperPath, manifests: [:],
            systemWide: Dictionary(uniqueKeysWithValues: systemWide.map { ($0.browser.rawValue, $0.path) }))
        for browser in browser.browsers {
            let path = hosts.manifestPath(browser)
            try BrowserHosts.write(BrowserHosts.manifest(browser, wrapperPath: hosts.wrapperPath), to: path, executable: false)
            output.manifests[browser.rawValue] = path
        }
        if options.json { return Output.json(output) }
        Output.line("wrote \(hosts.wrapperPath)")
        for browser in browser.browsers { Output.line("wrote \(output.manifests[browser.rawValue]!)") }
        for (browser, path) in systemWide { Output.line(BrowserHosts.systemWideNote(browser, path: path)) }
    }
}

/// `deeplinker uninstall-browser`: removes what `install-browser` wrote, and nothing else.
struct UninstallBrowserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall-browser",
        abstract: "Remove the native messaging host manifests and wrapper that install-browser wrote.",
        discussion: """
            Removes org.deeplinker.native_host.json from each browser's folder (all three, or
            --browser), and the wrapper $XDG_DATA_HOME/deeplinker/native-host once no manifest is
            left. Folders stay. Running it again is harmless.
            """)

    @Option(name: .long, help: ArgumentHelp("chromium, chrome, firefox or all.", valueName: "BROWSER"))
    var browser: BrowserChoice = .all
    @OptionGroup var options: GlobalOptions

    func run() throws {
        let hosts = try BrowserHosts.current()
        var removed: [String] = []
        for browser in browser.browsers where try BrowserHosts.remove(hosts.manifestPath(browser)) {
            removed.append(hosts.manifestPath(browser))
        }
        let remaining = BrowserHosts.Browser.allCases.filter { FileManager.default.fileExists(atPath: hosts.manifestPath($0)) }
        if remaining.isEmpty, try BrowserHosts.remove(hosts.wrapperPath) { removed.append(hosts.wrapperPath) }
        if options.json { return Output.json(["removed": removed]) }
        for path in removed { Output.line("removed \(path)") }
    }
}

extension BrowserHosts {
    /// The folders of this process's environment, or a failure saying why there are none.
    static func current() throws(CLIFailure) -> BrowserHosts {
        guard let hosts = BrowserHosts() else {
            throw CLIFailure(.failure, "cannot tell where browsers look for native messaging hosts: HOME is not an absolute path")
        }
        return hosts
    }

    /// Writes `text` to `path` atomically (creating the folder), mode 0755 or 0644.
    static func write(_ text: String, to path: String, executable: Bool) throws(CLIFailure) {
        do {
            try FileManager.default.createDirectory(
                atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: executable ? 0o755 : 0o644], ofItemAtPath: path)
        } catch {
            throw CLIFailure(.failure, "cannot write \(path): \(error)")
        }
    }

    /// Removes `path` if it exists; returns whether it did.
    static func remove(_ path: String) throws(CLIFailure) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        do {
            try FileManager.default.removeItem(atPath: path)
            return true
        } catch {
            throw CLIFailure(.failure, "cannot remove \(path): \(error)")
        }
    }
}
