import ArgumentParser
import FoundationEssentials

/// `deeplinker install-gnome-extension` (SPEC §6, §7): GNOME Shell's focus reporter for the user.
struct InstallGnomeExtensionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-gnome-extension",
        abstract: "Install and enable the GNOME Shell extension that reports the focused app (GNOME 43 and later).",
        discussion: """
            Copies focus@deeplinker.org into $XDG_DATA_HOME/gnome-shell/extensions/ in the format
            of this GNOME Shell (43-44: a script; 45 and later: an ES module) and enables it: in
            the running shell when it already knows the extension, else in the org.gnome.shell
            enabled-extensions setting. GNOME Shell reads new extensions only when it starts, so on
            Wayland it runs from the next login. Undo with `deeplinker uninstall-gnome-extension`.

            EXAMPLE:
              deeplinker install-gnome-extension
            """)

    @Option(name: .long, help: ArgumentHelp("The shipped extension folder (default: found beside this program).", valueName: "DIR"))
    var from: String?
    @Option(name: .customLong("shell-version"), help: ArgumentHelp("GNOME Shell's major version (default: gnome-shell --version).", valueName: "N"))
    var shellVersion: Int?
    @OptionGroup var options: GlobalOptions

    struct JSONOutput: Codable {
        var directory: String
        var format: String
        var enabled: String
    }

    func run() async throws {
        let gnome = GnomeExtension(environment: ProcessInfo.processInfo.environment)
        let shipped = try GnomeExtension.shippedDirectory(option: from, executable: try DesktopInstallation.executable(option: nil))
        let major: Int
        if let shellVersion {
            major = shellVersion
        } else {
            guard let answer = gnome.run("gnome-shell", ["--version"]), let found = GnomeExtension.shellMajor(fromVersionOutput: answer.output) else {
                throw CLIFailure(.failure, "GNOME Shell is not installed here (gnome-shell --version gave no version); pass --shell-version N to install anyway")
            }
            major = found
        }
        guard major >= 43 else { throw CLIFailure(.failure, "GNOME Shell \(major) is too old: the extension needs 43 or later") }
        let format = GnomeExtension.format(shellMajor: major)
        let sources = ["focus.js": shipped + "/focus.js", "extension.js": shipped + "/\(format)/extension.js", "metadata.json": shipped + "/\(format)/metadata.json"]
        let directory = gnome.userDirectory
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for name in GnomeExtension.installedFiles {
                let data = try Data(contentsOf: URL(fileURLWithPath: sources[name]!))
                try data.write(to: URL(fileURLWithPath: directory + "/" + name), options: .atomic)
            }
        } catch {
            throw CLIFailure(.failure, "cannot write \(directory): \(error)")
        }

        // A shell that knew the extension at its start enables it now (and records the setting).
        let enabled: String
        if await GnomeExtension.callShell("EnableExtension", busAddress: options.busAddress) == true,
           await GnomeExtension.shellState(busAddress: options.busAddress) == 1 {
            enabled = "running now"
        } else {
            let list = gnome.readList("enabled-extensions") ?? []
            if !list.contains(GnomeExtension.uuid) { try gnome.writeList("enabled-extensions", list + [GnomeExtension.uuid]) }
            if let disabled = gnome.readList("disabled-extensions"), disabled.contains(GnomeExtension.uuid) {
                try gnome.writeList("disabled-extensions", disabled.filter { $0 != GnomeExtension.uuid })
            }
            enabled = "from the next login"
        }
        if options.json { return Output.json(JSONOutput(directory: directory, format: format, enabled: enabled)) }
        Output.line("installed \(directory) (GNOME Shell \(major): \(format) format)")
        if enabled == "running now" {
            Output.line("enabled: it reports the focused app now")
        } else {
            Output.line("enabled in org.gnome.shell enabled-extensions: it runs from your next login (on Wayland GNOME Shell reads new extensions only when it starts)")
        }
    }
}

/// `deeplinker uninstall-gnome-extension`: disables the extension and removes exactly what
/// `install-gnome-extension` wrote.
struct UninstallGnomeExtensionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uninstall-gnome-extension",
        abstract: "Disable and remove the GNOME Shell extension that install-gnome-extension installed.",
        discussion: """
            Disables focus@deeplinker.org in the running shell (it then reports "" to the daemon),
            removes it from the org.gnome.shell enabled-extensions and disabled-extensions
            settings, and removes its three files from $XDG_DATA_HOME/gnome-shell/extensions/
            (the folder too once empty). A copy installed for everyone (/usr/share) is left alone.
            Running it again is harmless.
            """)

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let gnome = GnomeExtension(environment: ProcessInfo.processInfo.environment)
        let directory = gnome.userDirectory
        var removed: [String] = []
        if FileManager.default.fileExists(atPath: directory + "/extension.js"),
           await GnomeExtension.shellState(busAddress: options.busAddress) == 1,
           await GnomeExtension.callShell("DisableExtension", busAddress: options.busAddress) == true {
            removed.append("\(GnomeExtension.uuid) from the running GNOME Shell (disabled: it reported \"\" to the daemon)")
        }
        for key in ["enabled-extensions", "disabled-extensions"] {
            if let list = gnome.readList(key), list.contains(GnomeExtension.uuid) {
                try gnome.writeList(key, list.filter { $0 != GnomeExtension.uuid })
                removed.append("\(GnomeExtension.uuid) from \(GnomeExtension.settingsSchema) \(key)")
            }
        }
        for name in GnomeExtension.installedFiles {
            let path = directory + "/" + name
            guard FileManager.default.fileExists(atPath: path) else { continue }
            do { try FileManager.default.removeItem(atPath: path) } catch { throw CLIFailure(.failure, "cannot remove \(path): \(error)") }
            removed.append(path)
        }
        if (try? FileManager.default.contentsOfDirectory(atPath: directory))?.isEmpty == true {
            try? FileManager.default.removeItem(atPath: directory)
        }
        if options.json { return Output.json(["removed": removed]) }
        for item in removed { Output.line("removed \(item)") }
    }
}
