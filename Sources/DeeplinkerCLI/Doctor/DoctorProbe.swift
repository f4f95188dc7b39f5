import DBusKit
import DeeplinkerClient
import DeeplinkerCore
import DeeplinkerProtocol
import DeeplinkerRouteFiles
import FoundationEssentials
import Glibc
import Spawn
import TaskThreads

/// Reads what `doctor` checks from this machine — the bus, unit files, desktop entries, the
/// launchers' answers, browser manifests — and hands it to `DoctorChecks`. Reads only: it never
/// writes a file, and never calls the daemon unless it already runs (no bus activation).
struct DoctorProbe {
    let environment: [String: String]
    let busAddress: String?
    let configDir: String?
    /// Only this app's checks (nil: every app).
    let appID: String?

    var home: String { environment["HOME"] ?? "/" }
    var configHome: String { absolute(environment["XDG_CONFIG_HOME"]) ?? home + "/.config" }

    func run() async -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        let bus = await BusFacts.read(busAddress: busAddress)
        defer { bus.connection?.close() }
        // The fixes fit the install (package, scripts/install, a build) and the user manager, if any.
        let (managerEnvironment, managerReason) = await bus.managerEnvironment()
        let install = DoctorInstall(
            kind: DoctorInstall.kind(ofExecutable: Self.executablePath ?? ""), userManager: managerEnvironment != nil, home: home,
            userServiceDirectory: DoctorChecks.sessionServiceDirectories(environment: environment, userHome: Self.userHome)
                .first { !$0.strictNaming }?.path)
        checks.append(DoctorChecks.daemon(owner: bus.owner, version: bus.version, activatable: bus.activatable, busError: bus.error, install: install))
        for unit in [DoctorChecks.daemonUnit, DoctorChecks.focusUnit] {
            checks.append(DoctorChecks.unit(unit, unitFile(unit), isExecutable: Self.isExecutable, install: install))
        }
        checks.append(DoctorChecks.managerEnvironment(managerEnvironment, reason: managerReason))

        // Route files: every one on the search path (shadowed ones too), then the winners' configs;
        // the running daemon's own search path unless --config-dir names one.
        var directories = RouteFiles.searchPath(configDir: configDir, environment: environment)
        if configDir == nil, let properties = bus.properties, !properties.routeDirectories.isEmpty {
            directories = properties.routeDirectories
            checks.append(DoctorChecks.daemonFiles(
                routeDirectories: directories, stateDirectory: properties.stateDirectory,
                stateExists: FileManager.default.fileExists(atPath: properties.stateDirectory), install: install))
        }
        let files = RouteDirectory.routeFiles(in: directories)
        var configs: [AppConfig] = []
        let winners = RouteFiles.discover(in: directories).winners
        // The daemon's copy is compared only when it reads the same directories.
        let served = configDir == nil || bus.properties?.routeDirectories == directories ? bus.properties?.routeFiles : nil
        for path in files {
            let fileAppID = RouteFiles.appID(ofFile: path)
            if let appID, fileAppID != appID { continue }
            let daemon = DoctorChecks.daemonCopy(of: path, appID: fileAppID, isWinner: winners[fileAppID] == path, rows: served)
            let digest = RouteFileDigest.ofFile(atPath: path)
            switch RouteFiles.load(path) {
            case .success(let config):
                checks.append(DoctorChecks.routeFile(path, error: nil, diskDigest: digest, daemon: daemon))
                if winners[fileAppID] == path { configs.append(config) }
            case .failure(let error):
                checks.append(DoctorChecks.routeFile(path, error: error, diskDigest: digest, daemon: daemon))
            }
        }
        if files.isEmpty || (appID != nil && !files.contains { RouteFiles.appID(ofFile: $0) == appID }) {
            checks.append(DoctorChecks.noRouteFiles(searched: directories, appID: appID))
        }

        // Scheme handlers: the launchers are asked all at once.
        let schemes = configs.flatMap { config in DesktopEntry.handlerSchemes(config).map { (config.appID, $0) } }
        let answers = await withTaskGroup(of: (Int, String?, String?, String?).self) { group in
            for (index, (appID, scheme)) in schemes.enumerated() {
                group.addTask {
                    async let gio = tool("gio", ["mime", "x-scheme-handler/\(scheme)"])
                    async let xdg = tool("xdg-mime", ["query", "default", "x-scheme-handler/\(scheme)"])
                    async let validate = tool("desktop-file-validate", [handlerPath(appID)])
                    return await (index, gio, xdg, validate)
                }
            }
            var out = [Int: (String?, String?, String?)]()
            for await (index, gio, xdg, validate) in group { out[index] = (gio, xdg, validate) }
            return out
        }
        for (index, (appID, scheme)) in schemes.enumerated() {
            let (gio, xdg, validation) = answers[index] ?? (nil, nil, nil)
            let handler = DoctorChecks.HandlerEntry(
                path: handlerPath(appID), text: TextFile.lenientText(atPath: handlerPath(appID)), validation: validation)
            let xdgDefault = xdg?.trimmed
            checks.append(DoctorChecks.scheme(
                scheme, appID: appID, gioDefault: gio.flatMap(DoctorChecks.gioDefault(fromOutput:)),
                xdgDefault: (xdgDefault ?? "").isEmpty ? nil : xdgDefault, handler: handler, isExecutable: Self.isExecutable))
            // After an app's last scheme: the bus side of its (D-Bus-activatable) handler entry.
            if index + 1 == schemes.count || schemes[index + 1].0 != appID {
                checks += await handlerBusChecks(appID, handler: handler, bus: bus, install: install)
            }
        }

        // The app's entry, then whether its id names an installed app at all ("did you mean").
        var candidates: [String]?
        for config in configs {
            let entries = appEntries(config.appID)
            checks.append(DoctorChecks.appEntry(config.appID, entries, isExecutable: Self.isExecutable))
            let presence = DoctorChecks.AppPresence(
                installedEntry: entries.installed?.path, activatable: bus.activatableNames.contains(config.appID),
                owner: entries.installed == nil ? await bus.owner(of: config.appID) : nil)
            if presence.installedEntry == nil, !presence.activatable, presence.owner == nil, candidates == nil {
                candidates = installedAppIDs() + bus.activatableNames.sorted()
            }
            checks.append(DoctorChecks.appID(config.appID, presence, candidates: candidates ?? [], routeFile: winners[config.appID]))
            if let waiting = await bus.waitingRoute(of: config.appID), let check = DoctorChecks.waitingRoute(config.appID, waiting) {
                checks.append(check)
            }
        }

        // Focus: apps with ready = "focus", against the environment the focus watcher gets.
        let focusEnvironment = managerEnvironment?.variables ?? environment
        let focusApps = configs.filter { $0.ready == .focus }
        if !focusApps.isEmpty {
            var desktopEnvironment = focusEnvironment
            if desktopEnvironment["XDG_CURRENT_DESKTOP"] == nil { desktopEnvironment["XDG_CURRENT_DESKTOP"] = environment["XDG_CURRENT_DESKTOP"] }
            let gnome = DoctorChecks.FocusDesktop.of(environment: desktopEnvironment) == .gnome ? await gnomeExtensionFacts(bus) : DoctorChecks.GnomeExtensionFacts(installedAt: nil, enabledInSettings: nil, shellState: nil)
            for config in focusApps {
                checks.append(DoctorChecks.focusLaunch(
                    config.appID, launch: config.launch, installedEntry: appEntries(config.appID).installed,
                    activatable: bus.activatableNames.contains(config.appID)))
                checks.append(DoctorChecks.focusReporter(
                    config.appID, environment: desktopEnvironment, gnome: gnome, reporter: bus.properties?.focusReporter,
                    daemonRunning: bus.properties != nil, connectable: Self.connectable, install: install))
            }
        }

        let domainApps = configs.filter { !$0.domains.isEmpty }.map(\.appID)
        let hostManifests = manifests() + systemManifests()
        checks.append(DoctorChecks.browserHosts(domainApps: domainApps, manifests: hostManifests, isExecutable: Self.isExecutable))
        if !domainApps.isEmpty, let wrappers = DoctorChecks.browserHostWrappers(hostWrappers(hostManifests), isExecutable: Self.isExecutable) {
            checks.append(wrappers)
        }

        if !domainApps.isEmpty {
            switch await bus.linkClaims() {
            case .claims(let claims):
                let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
                let wanted = claims.filter { appID == nil || $0.appID == appID }
                if wanted.isEmpty { checks.append(DoctorChecks.domainsSkipped("the daemon lists no claimed domain")) }
                for claim in wanted { checks.append(DoctorChecks.domain(claim, now: now)) }
            case .unavailable(let reason):
                checks.append(DoctorChecks.domainsSkipped(reason))
            }
        }
        return checks
    }

    /// The handler entry's D-Bus service file and bus name (skipped unless it is DBusActivatable).
    func handlerBusChecks(_ appID: String, handler: DoctorChecks.HandlerEntry, bus: BusFacts, install: DoctorInstall) async -> [DoctorCheck] {
        let directories = DoctorChecks.sessionServiceDirectories(environment: environment, userHome: Self.userHome)
        let busName = DeeplinkerBus.handlerName(forAppID: appID)
        // Where install-desktop writes it ($XDG_DATA_HOME or $HOME), when the bus reads elsewhere.
        let written = (DesktopEntryLocator.dataHome(environment: environment) ?? home + "/.local/share") + "/dbus-1/services/\(busName).service"
        let outside = directories.contains { written.hasPrefix($0.path + "/") } || !FileManager.default.fileExists(atPath: written) ? nil : written
        let service = DoctorChecks.handlerService(
            appID, handler: handler, candidates: serviceFiles(for: busName, in: directories), searched: directories,
            writtenOutside: outside, isExecutable: Self.isExecutable)
        let facts = DoctorChecks.isDBusActivatable(handler) == true ? await bus.handlerName(busName) : nil
        let name = DoctorChecks.handlerBusName(
            appID, handler: handler, facts: facts, daemonOwner: bus.owner, busError: bus.error, serviceFileOK: service.ok, install: install)
        return [service, name]
    }

    // MARK: Files

    /// The service files dbus-daemon could take for `busName`, in its order: those named
    /// `<busName>.service` or that mention the name (any name in directories without strict naming).
    func serviceFiles(for busName: String, in directories: [DoctorChecks.ServiceDirectory]) -> [DoctorChecks.ServiceFile] {
        var out: [DoctorChecks.ServiceFile] = []
        for directory in directories {
            let named = busName + ".service"
            let entries = directory.strictNaming
                ? [named] : ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".service") }.sorted()
            for entry in entries {
                let path = directory.path + "/" + entry
                guard let text = TextFile.lenientText(atPath: path), entry == named || text.contains(busName) else { continue }
                out.append(DoctorChecks.ServiceFile(path: path, text: text))
            }
        }
        return out
    }


    /// The desktop entry ids installed on the XDG data path (`applications/` and its
    /// subdirectories one level down, `sub/x.desktop` being `sub-x`), never Deeplinker's own entries: its handler
    /// entries and what it wrote in the user's data home (overrides, minimal entries).
    func installedAppIDs() -> [String] {
        let written = DesktopEntryLocator.userApplicationsDirectory(environment: environment)
        var ids: [String] = []
        for directory in DesktopEntryLocator.applicationDirectories(environment: environment) {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            // One level of subdirectories (`kde4/x.desktop`), as launchers read them.
            let names = entries + entries.filter { !$0.hasSuffix(".desktop") }.flatMap { sub in
                ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + sub)) ?? []).map { sub + "/" + $0 }
            }
            for name in names.sorted() where name.hasSuffix(".desktop") && !name.hasSuffix(".deeplinker.desktop") {
                if directory == written, let text = TextFile.lenientText(atPath: directory + "/" + name),
                   let file = try? DesktopFile(parsing: text), DesktopEntryLocator.isDeeplinkerEntry(file) { continue }
                ids.append(String(name.dropLast(".desktop".count)).replacing("/", with: "-"))
            }
        }
        return ids
    }

    func handlerPath(_ appID: String) -> String {
        (DesktopEntryLocator.userApplicationsDirectory(environment: environment) ?? home + "/.local/share/applications")
            + "/" + DesktopEntry.handlerFileName(appID: appID)
    }

    func appEntries(_ appID: String) -> DoctorChecks.AppEntries {
        let read = { (path: String) in TextFile.lenientText(atPath: path) }
        let written = DesktopEntryLocator.writtenEntry(appID: appID, environment: environment, read: read)
        let installed = DesktopEntryLocator.installedEntry(appID: appID, environment: environment, read: read)
        return DoctorChecks.AppEntries(
            written: written, writtenModified: written.flatMap { Self.modified($0.path) },
            installed: installed, installedModified: installed.flatMap { Self.modified($0.path) })
    }

    /// The user unit search path (systemd.unit(5), user units), configuration directories first.
    var unitDirectories: (config: [String], all: [String]) {
        let config = [configHome + "/systemd/user", "/etc/systemd/user"]
        let dataHome = DesktopEntryLocator.dataHome(environment: environment) ?? home + "/.local/share"
        let dataDirs = (environment["XDG_DATA_DIRS"] ?? "/usr/local/share:/usr/share").split(separator: ":").map(String.init)
            .filter { $0.hasPrefix("/") }
        var all = config + [dataHome + "/systemd/user"] + dataDirs.map { $0 + "/systemd/user" }
        all += ["/usr/local/lib/systemd/user", "/usr/lib/systemd/user"]
        var seen = Set<String>()
        return (config, all.filter { seen.insert($0).inserted })
    }

    func unitFile(_ name: String) -> DoctorChecks.UnitFile? {
        let (configDirs, all) = unitDirectories
        guard let path = all.map({ $0 + "/" + name }).first(where: { FileManager.default.fileExists(atPath: $0) }),
              let text = TextFile.lenientText(atPath: path) else { return nil }
        var wanted: [String] = []
        for dir in configDirs {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            for entry in entries.sorted() where entry.hasSuffix(".wants") || entry.hasSuffix(".requires") {
                if FileManager.default.fileExists(atPath: "\(dir)/\(entry)/\(name)") { wanted.append(String(entry.split(separator: ".").dropLast().joined(separator: "."))) }
            }
        }
        return DoctorChecks.UnitFile(path: path, text: text, wantedBy: wanted)
    }

    /// The native messaging host manifests `install-browser` writes.
    func manifests() -> [DoctorChecks.HostManifest] {
        let file = "org.deeplinker.native_host.json"
        return [
            ("chromium", configHome + "/chromium/NativeMessagingHosts/" + file),
            ("chrome", configHome + "/google-chrome/NativeMessagingHosts/" + file),
            ("firefox", home + "/.mozilla/native-messaging-hosts/" + file),
        ].map { DoctorChecks.HostManifest(browser: $0.0, path: $0.1, text: TextFile.lenientText(atPath: $0.1)) }
    }

    /// The wrapper scripts the installed host manifests name (each once), with their text.
    func hostWrappers(_ manifests: [DoctorChecks.HostManifest]) -> [(path: String, text: String)] {
        struct Manifest: Decodable { var path: String? }
        var seen = Set<String>()
        return manifests.compactMap { manifest in
            guard let text = manifest.text, let path = try? JSONDecoder().decode(Manifest.self, from: Data(text.utf8)).path,
                  seen.insert(path).inserted, let wrapper = TextFile.lenientText(atPath: path) else { return nil }
            return (path, wrapper)
        }
    }

    /// Where the GNOME Shell extension is installed, whether the settings enable it, and the
    /// running shell's state of it.
    func gnomeExtensionFacts(_ bus: BusFacts) async -> DoctorChecks.GnomeExtensionFacts {
        let gnome = GnomeExtension(environment: environment)
        let folders = [gnome.userDirectory] + GnomeExtension.systemDirectories(environment: environment)
        let installed = folders.first { FileManager.default.fileExists(atPath: $0 + "/extension.js") }
        var enabled: Bool?
        if let list = gnome.readList("enabled-extensions") {
            enabled = list.contains(GnomeExtension.uuid) && !(gnome.readList("disabled-extensions") ?? []).contains(GnomeExtension.uuid)
        }
        let state = await GnomeExtension.shellState(busAddress: busAddress, connection: bus.connection)
        return DoctorChecks.GnomeExtensionFacts(installedAt: installed, enabledInSettings: enabled, shellState: state)
    }

    // MARK: Helpers

    func absolute(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/") else { return nil }
        return path
    }

    static func isExecutable(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// The running `deeplinker`'s resolved path (`/proc/self/exe`), which tells how it was installed.
    static var executablePath: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// This user's home directory in the user database (what dbus-daemon uses, not `$HOME`).
    static var userHome: String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    static func modified(_ path: String) -> Date? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    /// Whether something accepts connections on the unix socket at `path` (connects and closes).
    static func connectable(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }

    /// Runs a tool found on PATH and returns its standard output (nil when it is missing), on a
    /// thread of its own so that the checks' other probes go on meanwhile.
    func tool(_ name: String, _ arguments: [String]) async -> String? {
        let environment = self.environment
        return await withCheckedContinuation { continuation in
            NamedThread.start(name: "doctor-tool") {
                continuation.resume(returning: PathTool.run(name, arguments, environment: environment, standardError: .null)?.output)
            }
        }
    }
}

/// What `doctor` learns from the bus: who owns the daemon's name, whether it is activatable, and
/// (from a running daemon only) its version and link claims; the user manager's environment.
struct BusFacts {
    var connection: DBusConnection?
    var error: String?
    var owner: String?
    var version: Result<String, DBusError>?
    /// The running daemon's properties (route directories, state, focus reporter); nil when it
    /// does not run or does not answer.
    var properties: DaemonProperties?
    var activatable = false
    /// The bus's `ListActivatableNames`.
    var activatableNames: Set<String> = []

    static let timeout = Duration.seconds(2)

    /// The daemon's link claims, or why they cannot be had.
    enum ClaimsAnswer {
        case claims([DoctorChecks.LinkClaim])
        case unavailable(String)
    }

    static func read(busAddress: String?) async -> BusFacts {
        var facts = BusFacts()
        do {
            let connection = try DBusConnection(address: busAddress)
            facts.connection = connection
            facts.owner = try await connection.nameOwner(DeeplinkerNames.busName)
            facts.activatableNames = Set((try? await connection.listActivatableNames()) ?? [])
            facts.activatable = facts.activatableNames.contains(DeeplinkerNames.busName)
            if let owner = facts.owner {
                do {
                    facts.version = .success(try await DeeplinkerProxy(connection: connection, destination: owner, timeout: timeout).version())
                    facts.properties = try? await DeeplinkerProxy(connection: connection, destination: owner, timeout: timeout).properties()
                } catch {
                    facts.version = .failure(error)
                }
            }
        } catch {
            facts.error = error.message
        }
        return facts
    }

    /// `org.freedesktop.systemd1.Manager.Environment` (what `systemctl --user show-environment`
    /// prints), or nil and why.
    func managerEnvironment() async -> (ManagerEnvironment?, String) {
        guard let connection else { return (nil, "no session bus") }
        do {
            let reply = try await connection.call(
                destination: "org.freedesktop.systemd1", path: "/org/freedesktop/systemd1",
                interface: "org.freedesktop.DBus.Properties", member: "Get",
                arguments: [.string("org.freedesktop.systemd1.Manager"), .string("Environment")],
                timeout: Self.timeout, noAutoStart: true)
            guard case .variant(let value)? = reply.first, let entries = value.stringArray else {
                return (nil, "the user manager's Environment property is not a string list")
            }
            return (ManagerEnvironment(entries: entries), "")
        } catch {
            return (nil, "no systemd user manager on the session bus (\(error.name)); apps launched by bus activation get the bus's environment")
        }
    }

    /// The unique name that owns `name` now (nil: nobody, or no bus).
    func owner(of name: String) async -> String? {
        guard let connection else { return nil }
        return (try? await connection.nameOwner(name)) ?? nil
    }

    /// Who owns `name` (and its process id) and whether the bus can start it.
    func handlerName(_ name: String) async -> DoctorChecks.HandlerBusName? {
        guard let connection else { return nil }
        let owner = (try? await connection.nameOwner(name)) ?? nil
        let pid = owner == nil ? nil : try? await connection.processID(of: name)
        return DoctorChecks.HandlerBusName(owner: owner, ownerPID: pid, activatable: activatableNames.contains(name))
    }

    /// The app's waiting route (target) and why it waits (`GetInvocation`'s `detail`), from the
    /// running daemon; nil when nothing waits or the daemon does not answer.
    func waitingRoute(of appID: String) async -> (target: String, detail: String)? {
        guard let connection, let owner else { return nil }
        let daemon = DeeplinkerProxy(connection: connection, destination: owner, timeout: Self.timeout)
        guard let route = try? await daemon.pending(appID: appID) else { return nil }
        return (route.target, (try? await daemon.invocation(id: route.invocationID))?.detail ?? "")
    }

    /// `GetLinkClaims` of the running daemon, or why there are none.
    func linkClaims() async -> ClaimsAnswer {
        guard let connection, let owner else { return .unavailable("the daemon is not running") }
        do {
            let reply = try await connection.call(
                destination: owner, path: DeeplinkerNames.objectPath, interface: DeeplinkerNames.interface,
                member: "GetLinkClaims", timeout: Self.timeout, noAutoStart: true)
            let rows = reply.first?.arrayElements ?? []
            return .claims(rows.compactMap { row in
                guard let f = row.structureFields, f.count == 5 else { return nil }
                return DoctorChecks.LinkClaim(
                    appID: f[0].stringValue ?? "", domain: f[1].stringValue ?? "", verdict: f[2].stringValue ?? "",
                    detail: f[3].stringValue ?? "", checkedAt: f[4].int64Value ?? 0)
            })
        } catch where error.name == DBusError.unknownMethodName {
            return .unavailable("this deeplinkerd has no GetLinkClaims (UnknownMethod); update it to see each domain's verdict")
        } catch {
            return .unavailable("GetLinkClaims failed: \(error.name): \(error.message)")
        }
    }
}
