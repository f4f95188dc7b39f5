/// How Deeplinker was installed here and whether a systemd user manager runs, so that each of
/// doctor's fixes fits (SPEC §9): the Debian package (`/usr/bin`), `scripts/install` into `~/.local`
/// or a `--prefix`, or a build directory; with a user manager the units start the daemon and the
/// focus watcher, without one D-Bus activation (the service file) or the user does.
public struct DoctorInstall: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// The Debian package: `/usr/bin/deeplinker`, units in `/usr/lib/systemd/user`.
        case package
        /// `scripts/install [--prefix PREFIX]`: `PREFIX/bin/deeplinker`.
        case script(prefix: String)
        /// Not installed: run from a build directory (or anywhere else).
        case build
    }

    public var kind: Kind
    /// A systemd user manager answers on the session bus (`org.freedesktop.systemd1`).
    public var userManager: Bool
    /// The user's home (`scripts/install`'s default prefix is `~/.local`).
    public var home: String
    /// The user's own D-Bus service directory, which the session bus reads
    /// (`$XDG_DATA_HOME/dbus-1/services`); default `home/.local/share/dbus-1/services`.
    public var userServiceDirectory: String

    public init(kind: Kind, userManager: Bool, home: String, userServiceDirectory: String? = nil) {
        self.kind = kind
        self.userManager = userManager
        self.home = home
        self.userServiceDirectory = userServiceDirectory ?? home + "/.local/share/dbus-1/services"
    }

    /// What the fixes assumed before they fitted the install: a build directory and a user manager.
    public static let unknown = DoctorInstall(kind: .build, userManager: true, home: "~")

    /// The kind of install the running `deeplinker` (its resolved path) belongs to.
    public static func kind(ofExecutable path: String) -> Kind {
        if path == "/usr/bin/deeplinker" { return .package }
        guard path.hasSuffix("/bin/deeplinker"), !path.contains("/.build/") else { return .build }
        let prefix = String(path.dropLast("/bin/deeplinker".count))
        return prefix.isEmpty ? .build : .script(prefix: prefix)
    }

    var defaultPrefix: String { home + "/.local" }

    /// `scripts/install` as it was run (with its `--prefix` unless the default).
    var installScript: String {
        if case .script(let prefix) = kind, prefix != defaultPrefix { return "scripts/install --prefix \(prefix)" }
        return "scripts/install"
    }

    /// Where this install keeps `deeplinkerd` ("deeplinkerd" on PATH when unknown).
    var daemonProgram: String {
        switch kind {
        case .package: "/usr/bin/deeplinkerd"
        case .script(let prefix): prefix + "/bin/deeplinkerd"
        case .build: "deeplinkerd"
        }
    }

    /// The command that enables and starts `unit` (`deeplinkerd`, `deeplinker-focus`): a unit that
    /// `scripts/install --prefix` put outside the user unit path (`PREFIX/lib/systemd/user`) is
    /// enabled by its path, which links it in.
    func enable(_ unit: String) -> String {
        if case .script(let prefix) = kind, prefix != defaultPrefix {
            return "systemctl --user enable --now \(prefix)/lib/systemd/user/\(unit).service"
        }
        return "systemctl --user enable --now \(unit)"
    }

    /// The fix of a unit that is not installed.
    func installUnit(_ unit: String) -> String {
        switch kind {
        case .package: "sudo apt install --reinstall deeplinker (it ships /usr/lib/systemd/user/\(unit).service)"
        case .script, .build: "\(installScript) && \(enable(unit))"
        }
    }

    /// The D-Bus service file that lets the bus start the daemon, as this install writes it.
    var busServiceFile: String {
        switch kind {
        case .package: "/usr/share/dbus-1/services/org.deeplinker.Deeplinker1.service"
        case .script(let prefix): prefix + "/share/dbus-1/services/org.deeplinker.Deeplinker1.service"
        case .build: defaultPrefix + "/share/dbus-1/services/org.deeplinker.Deeplinker1.service"
        }
    }

    static let reloadBusConfig = "dbus-send --session --print-reply --dest=org.freedesktop.DBus / org.freedesktop.DBus.ReloadConfig"

    /// The fix when the daemon neither runs nor can be started by the bus.
    var startDaemon: String {
        if userManager {
            switch kind {
            case .package: return "systemctl --user enable --now deeplinkerd (or run /usr/bin/deeplinkerd)"
            case .script: return "\(enable("deeplinkerd")) (or run \(daemonProgram))"
            case .build: return "scripts/install && systemctl --user enable --now deeplinkerd (or run deeplinkerd)"
            }
        }
        // No user manager: D-Bus activation starts the daemon, or the user does.
        switch kind {
        case .package:
            return "sudo apt install --reinstall deeplinker (the bus starts the daemon from \(busServiceFile)), then \(Self.reloadBusConfig); or run /usr/bin/deeplinkerd"
        case .script(let prefix) where prefix != defaultPrefix:
            return "cp \(busServiceFile) \(userServiceDirectory)/ (the bus does not read \(prefix)/share), then \(Self.reloadBusConfig); or run \(daemonProgram)"
        case .script, .build:
            return "\(installScript) (it writes \(busServiceFile)), then \(Self.reloadBusConfig); or run \(daemonProgram)"
        }
    }

    /// The fix of a daemon that owns the name but does not answer, or lost its state directory.
    var restartDaemon: String {
        userManager
            ? "systemctl --user restart deeplinkerd (or kill it and let the bus start it again)"
            : "kill deeplinkerd and let the bus start it again (or run \(daemonProgram))"
    }

    /// The fix of a focus watcher (X11, sway, KDE) that is not reporting.
    var startFocusWatch: String {
        userManager
            ? "\(enable("deeplinker-focus")) (or run deeplinker focus-watch)"
            : "run deeplinker focus-watch in the session (an autostart entry; there is no systemd user manager to start deeplinker-focus.service)"
    }

    /// Gives the focus watcher the session's `names` (DISPLAY, SWAYSOCK): the user manager's
    /// environment, or without one the session that runs `focus-watch`.
    func importEnvironment(_ names: [String]) -> String {
        let list = names.joined(separator: " ")
        return userManager
            ? "import the session's \(list): systemctl --user import-environment \(list)"
            : "run deeplinker focus-watch from the session, where \(list) \(names.count == 1 ? "is" : "are") set"
    }

    /// A handler entry's bus name the bus cannot start although its service file is fine.
    var restartForHandlerName: String {
        "\(Self.reloadBusConfig) (the bus rereads its service files)" + (userManager ? ", or systemctl --user start deeplinkerd" : ", or run \(daemonProgram)")
    }
}
