import DBusKit
import DeeplinkerCLI
import DeeplinkerCore
import DeeplinkerTestSupport
import Foundation
import Testing

/// `deeplinker doctor` against real breakages: a real dbus-daemon and daemon, real `xdg-mime` and
/// `gio` on private XDG directories, a stand-in user manager whose environment comes from a file.
/// Each breakage is caught on its own line, named, with its fix.
@Suite struct DoctorTests {
    let app = "com.bestrecipes.App"

    /// A healthy user setup: the desktop entries installed, both units installed and enabled, a
    /// browser host manifest, and a user manager with DISPLAY.
    struct Setup {
        let d: DesktopLauncherFixture
        let manager: UserManagerStandIn

        var f: DaemonFixture { d.f }

        static func make(_ f: DaemonFixture, app: String, managerEnvironment: String = "DISPLAY=:0\nHOME=/home/u\n") async throws -> Setup {
            let d = DesktopLauncherFixture(f: f)
            let install = try await d.deeplinker(["install-desktop", app])
            #expect(install.status == 0, "\(install.stderr)")
            let config = d.environment["XDG_CONFIG_HOME"]!
            let units = config + "/systemd/user"
            for (unit, target, program) in [
                ("deeplinkerd.service", "default.target", TestProcess.product("deeplinkerd")),
                ("deeplinker-focus.service", "graphical-session.target", TestProcess.product("deeplinker")),
            ] {
                try TestFiles.write("[Unit]\nDescription=test\n[Service]\nExecStart=\(program)\n[Install]\nWantedBy=\(target)\n", to: "\(units)/\(unit)")
                try FileManager.default.createDirectory(atPath: "\(units)/\(target).wants", withIntermediateDirectories: true)
                try FileManager.default.createSymbolicLink(atPath: "\(units)/\(target).wants/\(unit)", withDestinationPath: "\(units)/\(unit)")
            }
            try TestFiles.write(
                #"{"name": "org.deeplinker.native_host", "path": "\#(DesktopLauncherFixture.deeplinker)", "type": "stdio"}"#,
                to: config + "/chromium/NativeMessagingHosts/org.deeplinker.native_host.json")
            let manager = try await UserManagerStandIn(f, environment: managerEnvironment)
            if app == "com.bestrecipes.App" {
                // What `deeplinker verify` would record.
                for domain in ["bestrecipes.com", "*.bestrecipes.com"] {
                    _ = try await f.call("SetDomainVerification", [.string(app), .string(domain), .string("verified"), .string("")])
                }
            }
            return Setup(d: d, manager: manager)
        }

        /// Runs `deeplinker doctor ARGS --json` on the fixture's bus and decodes its checks.
        func doctor(_ arguments: [String] = []) async throws -> (status: Int32, checks: [DoctorCheck], text: TestProcess.Result) {
            let json = try await d.deeplinker(["doctor"] + arguments + ["--json", "--bus-address", f.bus.address])
            let checks = try JSONDecoder().decode([DoctorCheck].self, from: Data(json.stdout.utf8))
            let text = try await d.deeplinker(["doctor"] + arguments + ["--bus-address", f.bus.address])
            #expect(text.status == json.status)
            #expect(text.lines.count == checks.count, "one line per check: \(text.stdout)")
            return (json.status, checks, text)
        }
    }

    func failed(_ checks: [DoctorCheck]) -> [DoctorCheck] { checks.filter { !$0.ok } }

    @Test func aHealthySetupPasses() async throws {
        try await DaemonFixture.withDaemon(shipped: [app]) { f in
            let setup = try await Setup.make(f, app: app)
            defer { setup.manager.stop() }
            let (status, checks, text) = try await setup.doctor([app])
            #expect(status == 0, "\(text.stdout)\(text.stderr)")
            #expect(failed(checks).isEmpty, "\(text.stdout)")
            // SPEC §7's order.
            let kinds = checks.map { String($0.name.split(separator: " ").first ?? "") }
            #expect(kinds.prefix(5) == ["daemon", "unit", "unit", "user", "route"], "\(kinds)")
            #expect(kinds.contains("scheme") && kinds.contains("entry") && kinds.contains("browser"))
            #expect(kinds.firstIndex(of: "scheme")! < kinds.firstIndex(of: "entry")!)
            #expect(kinds.firstIndex(of: "entry")! < kinds.firstIndex(of: "browser")!)
            #expect(text.lines.first?.hasPrefix("ok    daemon: running as ") == true, "\(text.stdout)")
            #expect(text.lines.contains("ok    user manager environment: DISPLAY=:0"))
        }
    }

    /// A domain whose verification found the app not listed: its verdict and age, and `verify`.
    @Test func aDomainVerdictIsNamedWithItsAge() async throws {
        try await DaemonFixture.withDaemon(shipped: [app]) { f in
            let setup = try await Setup.make(f, app: app)
            defer { setup.manager.stop() }
            _ = try await f.call("SetDomainVerification", [.string(app), .string("bestrecipes.com"), .string("not-listed"), .string("404")])
            let (status, checks, _) = try await setup.doctor([app])
            #expect(status == 12)
            let bad = failed(checks)
            #expect(bad.map(\.name) == ["domain \(app) bestrecipes.com"])
            #expect(bad.first?.detail.hasPrefix("not-listed (404), checked ") == true)
            #expect(bad.first?.fix.hasSuffix("then deeplinker verify \(app)") == true)
            #expect(checks.contains { $0.name == "domain \(app) *.bestrecipes.com" && $0.ok && $0.detail.hasPrefix("verified, checked ") })
        }
    }

    @Test func anotherDefaultHandlerIsNamedWithItsFix() async throws {
        try await DaemonFixture.withDaemon(shipped: [app]) { f in
            let setup = try await Setup.make(f, app: app)
            defer { setup.manager.stop() }
            try TestFiles.write(
                "[Desktop Entry]\nType=Application\nName=Other\nExec=/bin/true %u\nMimeType=x-scheme-handler/bestrecipes;\n",
                to: setup.d.userApplications + "/other.desktop")
            let set = try await setup.d.run("/usr/bin/xdg-mime", ["default", "other.desktop", "x-scheme-handler/bestrecipes"])
            #expect(set.status == 0, "\(set.stderr)")

            let (status, checks, text) = try await setup.doctor()
            #expect(status == 12)
            let bad = failed(checks)
            #expect(bad.map(\.name) == ["scheme bestrecipes"], "\(text.stdout)")
            #expect(bad.first?.detail.contains("names other.desktop, not com.bestrecipes.App.deeplinker.desktop") == true)
            #expect(bad.first?.fix == "deeplinker install-desktop \(app)")
            #expect(text.lines.contains { $0.hasPrefix("FAIL  scheme bestrecipes: ") && $0.hasSuffix("-> fix: deeplinker install-desktop \(app)") })

            // The fix works.
            #expect(try await setup.d.deeplinker(["install-desktop", app]).status == 0)
            #expect(try await setup.doctor().status == 0)
        }
    }

    @Test func aRemovedHandlerEntryIsNamed() async throws {
        try await DaemonFixture.withDaemon(shipped: [app]) { f in
            let setup = try await Setup.make(f, app: app)
            defer { setup.manager.stop() }
            let handler = setup.d.userApplications + "/\(app).deeplinker.desktop"
            try FileManager.default.removeItem(atPath: handler)

            let (status, checks, _) = try await setup.doctor([app])
            #expect(status == 12)
            let bad = failed(checks)
            #expect(bad.map(\.name) == ["scheme bestrecipes"])
            #expect(bad.first?.detail == "the handler entry \(handler) is missing")
            #expect(bad.first?.fix == "deeplinker install-desktop \(app)")
        }
    }

    @Test func aRouteFileSyntaxErrorNamesFileAndLine() async throws {
        let broken = "name = \"Broken\"\nschemes = [\"broken\"\n[targets]\nhome = {}\n"
        try await DaemonFixture.withDaemon(routeFiles: ["com.example.Broken": broken], shipped: [app]) { f in
            let setup = try await Setup.make(f, app: app)
            defer { setup.manager.stop() }
            let (status, checks, text) = try await setup.doctor()
            #expect(status == 12)
            let file = f.configDir + "/com.example.Broken.toml"
            let bad = failed(checks)
            #expect(bad.map(\.name) == ["route file \(file)"], "\(text.stdout)")
            let fix = try #require(bad.first?.fix)
            #expect(fix.hasPrefix("edit \(file):3:"), "\(fix)")
            #expect(fix.hasSuffix("then deeplinker check \(file)"))
        }
    }

    @Test func aStoppedDaemonThatIsNotActivatableIsNamed() async throws {
        try await DaemonFixture.withDaemon(shipped: [app]) { f in
            let setup = try await Setup.make(f, app: app)
            defer { setup.manager.stop() }
            try await f.stopDaemon()
            let (status, checks, _) = try await setup.doctor([app])
            #expect(status == 12)
            let daemon = try #require(checks.first)
            #expect(daemon.name == "daemon" && !daemon.ok)
            #expect(daemon.detail.hasPrefix("not running and not bus-activatable"))
            #expect(daemon.fix.contains("systemctl --user enable --now deeplinkerd"))
            // The domains line says why it could not look.
            #expect(checks.last?.detail == "skipped: the daemon is not running")
        }
    }

    @Test func displayMissingFromTheUserManagerIsNamed() async throws {
        try await DaemonFixture.withDaemon(shipped: [app]) { f in
            let setup = try await Setup.make(f, app: app, managerEnvironment: "HOME=/home/u\nLANG=C.UTF-8\nPATH=/usr/bin:/bin\n")
            defer { setup.manager.stop() }
            let (status, checks, _) = try await setup.doctor([app])
            #expect(status == 12)
            let bad = failed(checks)
            #expect(bad.map(\.name) == ["user manager environment"])
            #expect(bad.first?.detail.hasPrefix("neither DISPLAY nor WAYLAND_DISPLAY is set") == true)
            #expect(bad.first?.fix.hasPrefix("systemctl --user import-environment DISPLAY WAYLAND_DISPLAY") == true)

            try setup.manager.setEnvironment("WAYLAND_DISPLAY=wayland-0\nHOME=/home/u\n")
            #expect(try await setup.doctor([app]).status == 0)
        }
    }

    /// A `ready = "focus"` app whose session has no working focus backend: DISPLAY names an X
    /// server nobody runs.
    @Test func aFocusAppWithNoWorkingBackendIsNamed() async throws {
        let focusApp = "com.example.Focused"
        let text = "name = \"Focused\"\nready = \"focus\"\n[targets]\nhome = {}\n[[routes]]\npath = \"/home\"\ntarget = \"home\"\n"
        try await DaemonFixture.withDaemon(routeFiles: [focusApp: text]) { f in
            let setup = try await Setup.make(f, app: focusApp, managerEnvironment: "DISPLAY=:7391\n")
            defer { setup.manager.stop() }
            let (status, checks, out) = try await setup.doctor([focusApp])
            #expect(status == 12)
            let bad = failed(checks)
            #expect(bad.map(\.name) == ["focus \(focusApp)"], "\(out.stdout)")
            #expect(bad.first?.detail == "DISPLAY=:7391 but nothing listens on /tmp/.X11-unix/X7391")
            #expect(bad.first?.fix.contains("import-environment DISPLAY") == true)
        }
    }
}

/// The bus side of the D-Bus-activatable handler entry: GIO calls `Open` on `<app-id>.deeplinker`,
/// so its service file and its owner are checked next to the scheme, on the same real setup.
extension DoctorTests {
    var handlerName: String { app + ".deeplinker" }

    func servicePath(_ setup: Setup) -> String {
        setup.d.environment["XDG_DATA_HOME"]! + "/dbus-1/services/\(handlerName).service"
    }

    @Test func theRunningDaemonOwnsTheHandlerName() async throws {
        try await DaemonFixture.withDaemon(shipped: [app]) { f in
            let setup = try await Setup.make(f, app: app)
            defer { setup.manager.stop() }
            let (status, checks, text) = try await setup.doctor([app])
            #expect(status == 0, "\(text.stdout)")
            let names = checks.map(\.name)
            let service = try #require(checks.first { $0.name == "service file \(handlerName)" }, "\(names)")
            let owned = try #require(checks.first { $0.name == "bus name \(handlerName)" }, "\(names)")
            let daemon = URL(fileURLWithPath: TestProcess.product("deeplinkerd")).resolvingSymlinksInPath().path
            #expect(service.ok && service.detail == "\(servicePath(setup)) starts \(daemon)")
            let daemonName = try #require(f.daemonUniqueName)
            #expect(owned.ok && owned.detail == "owned by the daemon (\(daemonName))")
            // Next to the handler entry's check: after the scheme, before the app's entry.
            let scheme = try #require(names.firstIndex(of: "scheme bestrecipes"))
            #expect(names.firstIndex(of: service.name) == scheme + 1 && names.firstIndex(of: owned.name) == scheme + 2, "\(names)")
            #expect(names[scheme + 3] == "entry \(app)")

            // The daemon stops: nobody owns the name and this bus cannot start it.
            try await f.stopDaemon()
            let stopped = try await setup.doctor([app])
            let unowned = try #require(stopped.checks.first { $0.name == owned.name })
            #expect(!unowned.ok && unowned.detail.hasPrefix("not owned and not activatable"))
            #expect(unowned.fix.contains("org.freedesktop.DBus.ReloadConfig"), "the service file is fine: the bus must reread it")

            // Once the bus knows the service file, it can start the daemon for the name.
            try FileManager.default.copyItem(atPath: servicePath(setup), toPath: f.serviceDir + "/\(handlerName).service")
            _ = try await f.client.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "ReloadConfig")
            let activatable = try await setup.doctor([app])
            let startable = try #require(activatable.checks.first { $0.name == owned.name })
            #expect(startable.ok && startable.detail == "not owned; the bus starts deeplinkerd for it (activatable)")
        }
    }

    @Test func aRemovedHandlerServiceFileIsNamedWithItsFix() async throws {
        try await DaemonFixture.withDaemon(shipped: [app]) { f in
            let setup = try await Setup.make(f, app: app)
            defer { setup.manager.stop() }
            try FileManager.default.removeItem(atPath: servicePath(setup))

            let (status, checks, text) = try await setup.doctor([app])
            #expect(status == 12)
            let bad = failed(checks)
            #expect(bad.map(\.name) == ["service file \(handlerName)"], "\(text.stdout)")
            let directory = setup.d.environment["XDG_DATA_HOME"]! + "/dbus-1/services"
            #expect(bad.first?.detail.hasPrefix("no D-Bus service file with Name=\(handlerName) in ") == true)
            #expect(bad.first?.detail.contains(directory) == true, "\(bad)")
            #expect(bad.first?.fix == "deeplinker install-desktop \(app)")
            #expect(text.lines.contains { $0.hasPrefix("FAIL  service file \(handlerName): ") && $0.hasSuffix("-> fix: deeplinker install-desktop \(app)") })

            // The fix works.
            #expect(try await setup.d.deeplinker(["install-desktop", app]).status == 0)
            #expect(try await setup.doctor([app]).status == 0)
        }
    }

    @Test func aHandlerServiceFileWhoseProgramIsGoneNamesFileAndLine() async throws {
        try await DaemonFixture.withDaemon(shipped: [app]) { f in
            let setup = try await Setup.make(f, app: app)
            defer { setup.manager.stop() }
            let path = servicePath(setup)
            var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
            let exec = try #require(lines.firstIndex { $0.hasPrefix("Exec=") })
            lines[exec] = "Exec=/opt/gone/deeplinkerd"
            try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)

            let (status, checks, text) = try await setup.doctor([app])
            #expect(status == 12)
            let bad = failed(checks)
            #expect(bad.map(\.name) == ["service file \(handlerName)"], "\(text.stdout)")
            #expect(bad.first?.detail == "\(path):\(exec + 1): Exec names /opt/gone/deeplinkerd, which is not an executable absolute path")
            #expect(bad.first?.fix == "deeplinker install-desktop \(app) (or edit \(path):\(exec + 1))")
        }
    }

    /// An install from before the handler entry was D-Bus-activatable: launchers run its `Exec`,
    /// so there is no service file or name to check, and nothing fails for it.
    @Test func aHandlerEntryWithoutDBusActivatableSkipsTheBusChecks() async throws {
        try await DaemonFixture.withDaemon(shipped: [app]) { f in
            let setup = try await Setup.make(f, app: app)
            defer { setup.manager.stop() }
            let handler = setup.d.userApplications + "/\(app).deeplinker.desktop"
            let text = try String(contentsOfFile: handler, encoding: .utf8)
            #expect(text.contains("\nDBusActivatable=true\n"))
            try text.replacingOccurrences(of: "\nDBusActivatable=true\n", with: "\n").write(toFile: handler, atomically: true, encoding: .utf8)
            try FileManager.default.removeItem(atPath: servicePath(setup))

            let (status, checks, out) = try await setup.doctor([app])
            #expect(status == 0, "\(out.stdout)")
            for name in ["service file \(handlerName)", "bus name \(handlerName)"] {
                let check = try #require(checks.first { $0.name == name })
                #expect(check.ok && check.detail == "skipped: \(handler) is not DBusActivatable (launchers run its Exec)")
            }
        }
    }
}

/// The checks as pure functions, on fixtures.
@Suite struct DoctorCheckTests {
    /// The user manager's environment as `systemctl --user show-environment` prints it, from a file.
    @Test func managerEnvironmentFromAFile() throws {
        try TemporaryDirectory.with { dir in
            let path = dir.appending("show-environment.txt")
            try "HOME=/home/u\nLANG=C.UTF-8\nGREETING=$'hello world\\n'\nPATH=/usr/bin\n".write(toFile: path, atomically: true, encoding: .utf8)
            let environment = ManagerEnvironment(text: try String(contentsOfFile: path, encoding: .utf8))
            #expect(environment.value("GREETING") == "hello world\n")
            let check = DoctorChecks.managerEnvironment(environment, reason: "")
            #expect(!check.ok)
            #expect(check.fix.hasPrefix("systemctl --user import-environment DISPLAY WAYLAND_DISPLAY"))

            try "DISPLAY=:0\nXAUTHORITY=/run/user/1000/xauth\n".write(toFile: path, atomically: true, encoding: .utf8)
            let fixed = DoctorChecks.managerEnvironment(ManagerEnvironment(text: try String(contentsOfFile: path, encoding: .utf8)), reason: "")
            #expect(fixed.ok && fixed.detail == "DISPLAY=:0")
            #expect(DoctorChecks.managerEnvironment(nil, reason: "no systemd user manager").detail == "skipped: no systemd user manager")
        }
    }

    @Test func gioOutputAndDisplaySockets() {
        let out = "Default application for “x-scheme-handler/x”: a.desktop\nRegistered applications:\n\ta.desktop\n"
        #expect(DoctorChecks.gioDefault(fromOutput: out) == "a.desktop")
        #expect(DoctorChecks.gioDefault(fromOutput: "No default applications for “x-scheme-handler/x”\n") == nil)
        #expect(DoctorChecks.x11Socket(":0") == "/tmp/.X11-unix/X0")
        #expect(DoctorChecks.x11Socket(":12.0") == "/tmp/.X11-unix/X12")
        #expect(DoctorChecks.x11Socket("remote:0") == nil)
    }

    @Test func focusBackendsFollowTheAutoRule() {
        let never: (String) -> Bool = { _ in false }
        let always: (String) -> Bool = { _ in true }
        #expect(DoctorChecks.focusBackend("a.B", environment: ["SWAYSOCK": "/run/s.sock"], connectable: always).ok)
        #expect(!DoctorChecks.focusBackend("a.B", environment: ["SWAYSOCK": "/run/s.sock"], connectable: never).ok)
        let gnome = DoctorChecks.focusBackend("a.B", environment: ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"], connectable: always)
        #expect(!gnome.ok && gnome.detail.contains("no focus backend"))
        #expect(DoctorChecks.focusBackend("a.B", environment: ["DISPLAY": ":0"], connectable: always).ok)
        #expect(!DoctorChecks.focusBackend("a.B", environment: [:], connectable: always).ok)
    }

    @Test func unitsAndDomains() {
        let exists: (String) -> Bool = { $0 == "/usr/bin/deeplinkerd" }
        let unit = DoctorChecks.UnitFile(path: "/u/deeplinkerd.service", text: "[Service]\nExecStart=/usr/bin/deeplinkerd\n", wantedBy: [])
        let notEnabled = DoctorChecks.unit("deeplinkerd.service", unit, isExecutable: exists)
        #expect(!notEnabled.ok && notEnabled.fix == "systemctl --user enable --now deeplinkerd")
        var moved = unit
        moved.text = "[Service]\nExecStart=/gone/deeplinkerd\n"
        moved.wantedBy = ["default.target"]
        #expect(DoctorChecks.unit("deeplinkerd.service", moved, isExecutable: exists).fix.contains("/u/deeplinkerd.service:2"))

        let now: Int64 = 10 * 86_400 * 1_000_000
        let verified = DoctorChecks.domain(.init(appID: "a.B", domain: "b.com", verdict: "verified", detail: "", checkedAt: now - 7_200_000_000), now: now)
        #expect(verified.ok && verified.detail == "verified, checked 2 h ago")
        let never = DoctorChecks.domain(.init(appID: "a.B", domain: "b.com", verdict: "", detail: "", checkedAt: 0), now: now)
        #expect(!never.ok && never.fix == "deeplinker verify a.B")
        let listed = DoctorChecks.domain(.init(appID: "a.B", domain: "*.b.com", verdict: "not-listed", detail: "", checkedAt: 1), now: now)
        #expect(listed.fix.hasPrefix("publish https://b.com/.well-known/deeplinker-app-links.json"))
    }

    @Test func oneLineEach() {
        let check = DoctorCheck.fail("daemon", "first\n  second\n", fix: "a\nb")
        #expect(check.line == "FAIL  daemon: first second -> fix: a b")
        #expect(DoctorCheck.pass("x", "fine").line == "ok    x: fine")
    }
}

extension DoctorCheckTests {
    @Test func aDaemonThatOwnsTheNameButDoesNotAnswerFails() {
        let hung = DoctorChecks.daemon(
            owner: ":1.4", version: .failure(DBusError(name: "org.freedesktop.DBus.Error.NoReply", message: "no reply")),
            activatable: true, busError: nil)
        #expect(!hung.ok && hung.detail.hasPrefix(":1.4 owns the name but does not answer (org.freedesktop.DBus.Error.NoReply"))
        #expect(DoctorChecks.daemon(owner: ":1.4", version: .success("1.1.0"), activatable: false, busError: nil).detail == "running as :1.4, version 1.1.0")
        #expect(DoctorChecks.daemon(owner: nil, version: nil, activatable: true, busError: nil).ok)
    }
}

extension DoctorCheckTests {
    static let activatable = DoctorChecks.HandlerEntry(
        path: "/h/a.B.deeplinker.desktop", text: "[Desktop Entry]\nType=Application\nName=x\nExec=/d open --app a.B %u\nDBusActivatable=true\n",
        validation: "")

    @Test func sessionServiceDirectoriesInDBusDaemonsOrder() {
        let directories = DoctorChecks.sessionServiceDirectories(
            environment: ["XDG_RUNTIME_DIR": "/run/user/1", "HOME": "/h", "XDG_DATA_DIRS": "/opt/share:relative:/usr/share/"], userHome: "/home/u")
        // Without XDG_DATA_HOME, the user database's home, as dbus-daemon does (not $HOME).
        #expect(directories.map(\.path) == [
            "/run/user/1/dbus-1/services", "/home/u/.local/share/dbus-1/services", "/opt/share/dbus-1/services", "/usr/share/dbus-1/services",
        ])
        #expect(directories.map(\.strictNaming) == [true, false, false, false])
        let configured = DoctorChecks.sessionServiceDirectories(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"], userHome: "/home/u")
        #expect(configured.map(\.path) == [
            "/d/dbus-1/services", "/usr/local/share/dbus-1/services", "/usr/share/dbus-1/services",
        ])
    }

    @Test func theHandlerServiceFileDBusDaemonWouldUse() {
        let dirs = [DoctorChecks.ServiceDirectory(path: "/h/dbus-1/services")]
        let check = { (files: [DoctorChecks.ServiceFile]) in
            DoctorChecks.handlerService("a.B", handler: Self.activatable, candidates: files, searched: dirs, isExecutable: { $0 == "/bin/d d" })
        }
        // The first file with the name wins, whatever its file name; quotes are not part of the path.
        let good = check([
            .init(path: "/h/dbus-1/services/other.service", text: "[D-BUS Service]\n# a.B.deeplinker\nName=a.B.deeplinkerX\nExec=/gone\n"),
            .init(path: "/h/dbus-1/services/x.service", text: "[D-BUS Service]\nName = a.B.deeplinker\nExec='/bin/d d' --flag\n"),
        ])
        #expect(good.ok && good.detail == "/h/dbus-1/services/x.service starts /bin/d d")
        let renamed = check([.init(path: "/h/dbus-1/services/a.B.deeplinker.service", text: "\n[D-BUS Service]\nName=a.B.other\nExec=/bin/d d\n")])
        #expect(!renamed.ok && renamed.detail.hasPrefix("/h/dbus-1/services/a.B.deeplinker.service:3 says Name=a.B.other, not a.B.deeplinker"))
        #expect(renamed.fix == "deeplinker install-desktop a.B (or edit /h/dbus-1/services/a.B.deeplinker.service:3)")
        let wrongGroup = check([.init(path: "/h/y.service", text: "[Other]\nName=a.B.deeplinker\nExec=/bin/d d\n")])
        #expect(!wrongGroup.ok && wrongGroup.fix == "deeplinker install-desktop a.B")
        // $HOME is not the user database's home: install-desktop wrote it where the bus does not look.
        let elsewhere = DoctorChecks.handlerService(
            "a.B", handler: Self.activatable, candidates: [], searched: dirs,
            writtenOutside: "/tmp/h/.local/share/dbus-1/services/a.B.deeplinker.service", isExecutable: { _ in true })
        #expect(!elsewhere.ok && elsewhere.detail.hasPrefix("/tmp/h/.local/share/dbus-1/services/a.B.deeplinker.service is outside"))
        #expect(elsewhere.fix.hasPrefix("run the session bus with XDG_DATA_HOME=/tmp/h/.local/share, or "))
    }

    @Test func theHandlerBusNameAndItsOwner() {
        let check = { (facts: DoctorChecks.HandlerBusName, daemon: String?) in
            DoctorChecks.handlerBusName("a.B", handler: Self.activatable, facts: facts, daemonOwner: daemon, busError: nil, serviceFileOK: true)
        }
        #expect(check(.init(owner: ":1.2", activatable: false), ":1.2").ok)
        let taken = check(.init(owner: ":1.9", ownerPID: 4242, activatable: true), ":1.2")
        #expect(!taken.ok && taken.detail == "owned by :1.9 (pid 4242), not by the daemon (:1.2): launchers' Open goes there")
        #expect(taken.fix == "stop the process that holds a.B.deeplinker (pid 4242), then deeplinker reload")
        let dropped = check(.init(owner: nil, activatable: true), ":1.2")
        #expect(!dropped.ok && dropped.fix.hasPrefix("deeplinker reload"))
        #expect(check(.init(owner: nil, activatable: true), nil).ok)
        let nobody = DoctorChecks.handlerBusName(
            "a.B", handler: Self.activatable, facts: .init(owner: nil, activatable: false), daemonOwner: nil, busError: nil, serviceFileOK: false)
        #expect(!nobody.ok && nobody.fix == "deeplinker install-desktop a.B")
        let missing = DoctorChecks.HandlerEntry(path: "/h/a.B.deeplinker.desktop", text: nil, validation: nil)
        #expect(DoctorChecks.handlerBusName("a.B", handler: missing, facts: nil, daemonOwner: nil, busError: nil, serviceFileOK: false).ok)
    }
}

extension DoctorCheckTests {
    @Test func aMissingRouteFileNamesWhereToWriteIt() {
        let check = DoctorChecks.noRouteFiles(searched: ["/h/.config/deeplinker/apps", "/usr/share/deeplinker/apps"], appID: "a.B")
        #expect(check.name == "route file a.B.toml" && !check.ok)
        #expect(check.detail == "no a.B.toml in /h/.config/deeplinker/apps, /usr/share/deeplinker/apps")
        #expect(check.fix == "write /h/.config/deeplinker/apps/a.B.toml (the format: SPEC §5), then deeplinker check /h/.config/deeplinker/apps/a.B.toml")
        #expect(DoctorChecks.noRouteFiles(searched: ["/d"]).detail == "no route file in /d")
    }
}
