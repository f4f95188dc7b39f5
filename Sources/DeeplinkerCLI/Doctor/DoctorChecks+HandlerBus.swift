import DeeplinkerCore
import DeeplinkerProtocol
import FoundationEssentials

/// The D-Bus side of a `DBusActivatable` handler entry (SPEC §8): GIO calls
/// `org.freedesktop.Application.Open` on `<app-id>.deeplinker` instead of running `Exec`, so a
/// missing or wrong service file, or a name nobody owns and the bus cannot start, makes a link do
/// nothing without a word. Pure, like the other checks: `DoctorProbe` reads the files and the bus.
extension DoctorChecks {
    /// A session bus service directory, in dbus-daemon's order of precedence.
    public struct ServiceDirectory: Sendable, Hashable {
        public var path: String
        /// Only `<name>.service` counts there (`$XDG_RUNTIME_DIR/dbus-1/services`); elsewhere any
        /// `*.service` file whose `Name=` is the name does.
        public var strictNaming: Bool

        public init(path: String, strictNaming: Bool = false) {
            self.path = path
            self.strictNaming = strictNaming
        }
    }

    /// dbus-daemon's `<standard_session_servicedirs/>` (dbus-daemon(1)), first one wins:
    /// `$XDG_RUNTIME_DIR/dbus-1/services` (strict naming), `$XDG_DATA_HOME/dbus-1/services`, each
    /// `$XDG_DATA_DIRS/dbus-1/services` (default `/usr/local/share:/usr/share`), then
    /// `/usr/share/dbus-1/services`. Without `XDG_DATA_HOME`, dbus-daemon takes the home directory
    /// of the user database (`userHome`), not `$HOME`.
    public static func sessionServiceDirectories(environment: [String: String], userHome: String?) -> [ServiceDirectory] {
        var out: [ServiceDirectory] = []
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            out.append(ServiceDirectory(path: runtime + "/dbus-1/services", strictNaming: true))
        }
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            out.append(ServiceDirectory(path: dataHome + "/dbus-1/services"))
        } else if let home = userHome ?? environment["HOME"], home.hasPrefix("/") {
            out.append(ServiceDirectory(path: home + "/.local/share/dbus-1/services"))
        }
        let dataDirs = (environment["XDG_DATA_DIRS"] ?? "/usr/local/share:/usr/share").split(separator: ":").filter { $0.hasPrefix("/") }
        for dir in dataDirs + ["/usr/share"] {
            out.append(ServiceDirectory(path: dir + "/dbus-1/services"))
        }
        var seen = Set<String>()
        return out.map { ServiceDirectory(path: $0.path.replacing("//", with: "/"), strictNaming: $0.strictNaming) }
            .filter { seen.insert($0.path).inserted }
    }

    /// A D-Bus service file read from a service directory.
    public struct ServiceFile: Sendable, Hashable {
        public var path: String
        public var text: String

        public init(path: String, text: String) {
            self.path = path
            self.text = text
        }

        /// The file name is `<name>.service`, as dbus-daemon recommends.
        func isNamed(for name: String) -> Bool { path.hasSuffix("/" + name + ".service") }

        /// The value and 1-based line of `key` in the `[D-BUS Service]` group (service files are
        /// key files, like desktop entries); nil when absent or the file does not parse.
        func entry(_ key: String) -> (value: String, line: Int)? {
            let group = "D-BUS Service"
            guard let file = try? DesktopFile(parsing: text), let value = file.value(key, in: group),
                let line = file.line(of: key, in: group)
            else { return nil }
            return (value, line)
        }
    }

    /// What the bus says about the handler entry's name.
    public struct HandlerBusName: Sendable, Hashable {
        /// The unique name owning it now.
        public var owner: String?
        /// The owner's process id, when the bus told.
        public var ownerPID: UInt32?
        /// In the bus's `ListActivatableNames`.
        public var activatable: Bool

        public init(owner: String?, ownerPID: UInt32? = nil, activatable: Bool) {
            self.owner = owner
            self.ownerPID = ownerPID
            self.activatable = activatable
        }
    }

    /// Whether launchers that speak D-Bus call the handler entry's name: `DBusActivatable=true`.
    /// nil when the entry is missing or does not parse (the `scheme` check says so).
    public static func isDBusActivatable(_ handler: HandlerEntry) -> Bool? {
        guard let text = handler.text, let file = try? DesktopFile(parsing: text) else { return nil }
        return file.value("DBusActivatable") == "true"
    }

    /// Why the handler's bus checks do not apply, or nil when they do.
    static func busChecksSkipped(_ handler: HandlerEntry) -> String? {
        switch isDBusActivatable(handler) {
        case nil: "skipped: no readable handler entry \(handler.path)"
        case false?: "skipped: \(handler.path) is not DBusActivatable (launchers run its Exec)"
        case true?: nil
        }
    }

    /// The program of a service file's `Exec=` (its first word, shell quotes removed).
    static func serviceProgram(_ exec: String) -> String {
        var program = ""
        var quote: Character?
        for character in exec {
            if let open = quote {
                if character == open { quote = nil } else { program.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character.isWhitespace {
                if !program.isEmpty { break }
            } else {
                program.append(character)
            }
        }
        return program
    }

    /// The service file dbus-daemon uses for `<app-id>.deeplinker` has that `Name=` and an `Exec=`
    /// program that exists. `candidates`: the service files in the search directories that are
    /// named for it or mention it, in search order (`ServiceDirectory`'s precedence);
    /// `writtenOutside`: the file `install-desktop` wrote, when it is in none of them (`$HOME` is
    /// not the user database's home and the bus has no `XDG_DATA_HOME`).
    public static func handlerService(
        _ appID: String, handler: HandlerEntry, candidates: [ServiceFile], searched: [ServiceDirectory],
        writtenOutside: String? = nil, isExecutable: (String) -> Bool
    ) -> DoctorCheck {
        let busName = DeeplinkerBus.handlerName(forAppID: appID)
        let name = "service file \(busName)"
        if let skipped = busChecksSkipped(handler) { return .pass(name, skipped) }
        let install = "deeplinker install-desktop \(appID)"
        guard let service = candidates.first(where: { $0.entry("Name")?.value == busName }) else {
            if let misnamed = candidates.first(where: { $0.isNamed(for: busName) }) {
                let found = misnamed.entry("Name")
                let whereName = found.map { "\(misnamed.path):\($0.line) says Name=\($0.value)" } ?? "\(misnamed.path) has no Name= in [D-BUS Service]"
                return .fail(name, "\(whereName), not \(busName): the bus cannot start the handler entry's daemon",
                             fix: "\(install) (or edit \(misnamed.path)\(found.map { ":\($0.line)" } ?? ""))")
            }
            if let writtenOutside {
                let dataHome = String(writtenOutside.dropLast("/dbus-1/services/\(busName).service".count))
                return .fail(
                    name, "\(writtenOutside) is outside the bus's service directories (\(searched.map(\.path).joined(separator: ", ")); "
                        + "without XDG_DATA_HOME, dbus-daemon reads the user database's home, not $HOME)",
                    fix: "run the session bus with XDG_DATA_HOME=\(dataHome), or \(install) with HOME set to the user database's home")
            }
            return .fail(
                name, "no D-Bus service file with Name=\(busName) in \(searched.map(\.path).joined(separator: ", ")): "
                    + "the handler entry is DBusActivatable, so launchers find nobody to start", fix: install)
        }
        guard let exec = service.entry("Exec") else {
            return .fail(name, "\(service.path) has no Exec=", fix: "\(install) (or edit \(service.path))")
        }
        let program = serviceProgram(exec.value)
        guard program.hasPrefix("/"), isExecutable(program) else {
            return .fail(
                name, "\(service.path):\(exec.line): Exec names \(program.isEmpty ? "nothing" : program), which is not an executable absolute path",
                fix: "\(install) (or edit \(service.path):\(exec.line))")
        }
        return .pass(name, "\(service.path) starts \(program)")
    }

    /// The handler entry's bus name is owned by the running daemon, or (daemon not running) the bus
    /// can start it. Another owner gets the launchers' `Open`; a running daemon without the name,
    /// or a name nobody can start, leaves it unanswered.
    public static func handlerBusName(
        _ appID: String, handler: HandlerEntry, facts: HandlerBusName?, daemonOwner: String?, busError: String?, serviceFileOK: Bool,
        install: DoctorInstall = .unknown
    ) -> DoctorCheck {
        let busName = DeeplinkerBus.handlerName(forAppID: appID)
        let name = "bus name \(busName)"
        if let skipped = busChecksSkipped(handler) { return .pass(name, skipped) }
        guard busError == nil, let facts else { return .pass(name, "skipped: no session bus") }
        if let owner = facts.owner {
            if owner == daemonOwner { return .pass(name, "owned by the daemon (\(owner))") }
            let who = facts.ownerPID.map { "\(owner) (pid \($0))" } ?? owner
            let daemon = daemonOwner.map { "not by the daemon (\($0))" } ?? "while the daemon is not running"
            return .fail(name, "owned by \(who), \(daemon): launchers' Open goes there",
                         fix: "stop the process that holds \(busName)\(facts.ownerPID.map { " (pid \($0))" } ?? ""), then deeplinker reload")
        }
        if daemonOwner != nil {
            return .fail(name, "the daemon runs but does not own it: launchers' Open finds no one and a link does nothing",
                         fix: "deeplinker reload (the daemon takes the name of every app with a scheme)")
        }
        if facts.activatable { return .pass(name, "not owned; the bus starts deeplinkerd for it (activatable)") }
        return .fail(
            name, "not owned and not activatable: launchers' Open fails and a link does nothing",
            fix: serviceFileOK
                ? install.restartForHandlerName
                : "deeplinker install-desktop \(appID)")
    }
}
