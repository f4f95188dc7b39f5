import DBusKit
import DeeplinkerDaemon
import Foundation
import Testing
import DeeplinkerTestSupport

/// The `deeplinkerd` executable itself: flags, private bus, name conflicts, signals, unit files.
@Suite("deeplinkerd executable")
struct DeeplinkerdTests {
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        DaemonFixture.processEnvironment(extra)
    }

    static let configDir = TestRouteFiles.shippedDirectory

    @Test("with no session bus it starts a private one, prints the address, serves, and exits 0 on SIGTERM or SIGINT",
          arguments: [SIGTERM, SIGINT])
    func privateBusAndCleanExit(stopSignal: Int32) async throws {
        let state = try TemporaryDirectory()
        let daemon = try TestProcess(product: "deeplinkerd", arguments: ["--config-dir", Self.configDir, "--state-dir", state.path], environment: Self.environment())
        let exportLine = try await daemon.stdoutLines.next(where: { $0.hasPrefix("export DBUS_SESSION_BUS_ADDRESS=") })
        let address = String(exportLine.split(separator: "=", maxSplits: 1)[1]).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
        let client = try DBusConnection(address: address)
        defer { client.close() }
        try await client.waitForOwner(DeeplinkerAPI.busName)
        try await client.ping(DeeplinkerAPI.busName, path: DeeplinkerAPI.objectPath)
        let apps = try await client.call(destination: DeeplinkerAPI.busName, path: DeeplinkerAPI.objectPath, interface: DeeplinkerAPI.interface, member: "ListApps")
        #expect(apps.first?.stringArray == ["com.bestrecipes.App", "com.example.Apartments"])
        daemon.signal(stopSignal)
        let (status, stderr) = try await daemon.finish()
        #expect(status == 0, "stderr: \(stderr)")
        #expect(stderr.contains("shutting down"))
    }

    @Test("a second daemon on the same bus exits non-zero with a clear message")
    func secondDaemonRefused() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let second = try await f.spawnDaemonProcess(stateDirectory: f.root + "/state2", waitForName: false)
            let (status, stderr) = try await second.finish()
            #expect(status != 0)
            #expect(stderr.contains("org.deeplinker.Deeplinker1 is already owned by \(f.daemonUniqueName ?? "?")"))
        }
    }

    @Test("SIGHUP re-reads the route files")
    func hangupReloads() async throws {
        // The route file is a symlink to a file elsewhere, so editing it makes no event in the
        // watched directory: only the signal can explain the new route.
        try await DaemonFixture.withDaemon(startDaemon: false) { f in
            let real = f.root + "/real/org.example.Notes.toml"
            try TestFiles.write(
                "schemes = [\"notes\"]\n[targets]\nnote = { id = \"string\" }\nlist = {}\n[[routes]]\npath = \"/note/:id\"\ntarget = \"note\"\n",
                to: real)
            try FileManager.default.createSymbolicLink(atPath: f.configDir + "/org.example.Notes.toml", withDestinationPath: real)
            // The service-manager protocol tells when the reload is done: RELOADING=1 … READY=1.
            let notify = try NotifySocket(directory: f.root)
            let daemon = try await f.spawnDaemonProcess(environment: ["NOTIFY_SOCKET": notify.path])
            func resolve(_ url: String) async throws -> [DBusValue] {
                try await f.call("ResolveURL", [.string("org.example.Notes"), .string(url)])
            }
            await #expect(throws: DBusError.self) { _ = try await resolve("notes://list") }
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: real))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("[[routes]]\npath = \"/list\"\ntarget = \"list\"\n".utf8))
            try handle.close()
            var pings = 0
            while let message = notify.nextState(pings: &pings), !message.hasPrefix("STATUS=") {}
            daemon.signal(SIGHUP)
            while let message = notify.nextState(pings: &pings), !message.hasPrefix("RELOADING=1") {}
            #expect(notify.nextState(pings: &pings) == "READY=1")
            #expect(try await resolve("notes://list")[1] == .string("list"))
        }
    }

    @Test("--version and --help")
    func versionAndHelp() async throws {
        let version = try await TestProcess.run(TestProcess.product("deeplinkerd"), ["--version"], environment: Self.environment())
        #expect(version.status == 0)
        #expect(version.stdout == DeeplinkerAPI.version + "\n")
        let help = try await TestProcess.run(TestProcess.product("deeplinkerd"), ["--help"], environment: Self.environment())
        #expect(help.status == 0)
        // The fast path's options (DaemonArguments) are the ones ArgumentParser declares.
        for flag in DaemonOption.allCases.map({ "--" + $0.rawValue }) + ["--version", "--help"] {
            #expect(help.stdout.contains(flag), "help lacks \(flag)")
        }
    }

    @Test("the shipped introspection XML is what the daemon describes")
    func introspectionFileMatches() throws {
        let shipped = try TestFiles.read(TestFiles.repository("Config/org.deeplinker.Deeplinker1.xml"))
        #expect(shipped == DeeplinkerAPI.introspectionXML)
    }

    @Test("the D-Bus activation file starts the daemon on first call")
    func busActivation() async throws {
        let shipped = try TestFiles.read(TestFiles.repository("Config/org.deeplinker.Deeplinker1.service"))
        #expect(shipped.contains("Name=org.deeplinker.Deeplinker1"))
        #expect(shipped.contains("SystemdService=deeplinkerd.service"))
        // The same file with Exec pointing at this build.
        let directory = try TemporaryDirectory()
        let services = directory.appending("services")
        let exec = "Exec=\(TestProcess.product("deeplinkerd")) --config-dir \(Self.configDir) --state-dir \(directory.appending("state"))"
        let adapted = shipped.split(separator: "\n").map { $0.hasPrefix("Exec=") ? exec : String($0) }.joined(separator: "\n")
        try TestFiles.write(adapted, to: services + "/org.deeplinker.Deeplinker1.service")
        let bus = try PrivateBus(serviceDirectories: [services])
        defer { bus.stop() }
        let client = try DBusConnection(address: bus.address)
        defer { client.close() }
        #expect(try await client.listActivatableNames().contains(DeeplinkerAPI.busName))
        let state = try await client.call(
            destination: DeeplinkerAPI.busName, path: DeeplinkerAPI.objectPath, interface: DeeplinkerAPI.interface,
            member: "GetAppState", arguments: [.string("com.bestrecipes.App")])
        #expect(state == [.string("not-running")])
        if let owner = try await client.nameOwner(DeeplinkerAPI.busName) {
            let pid = try await client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID", arguments: [.string(owner)])
            if let pid = pid.first?.uint32Value { kill(pid_t(pid), SIGKILL) }
        }
    }

    @Test("systemd-analyze --user verify accepts the unit without a word")
    func systemdUnitVerifies() async throws {
        let runtime = try TemporaryDirectory()
        // The unit as `scripts/install` writes it: @bindir@ is this build's products directory.
        let template = try TestFiles.read(TestFiles.repository("systemd/deeplinkerd.service"))
        let installed = runtime.appending("deeplinkerd.service")
        try template.replacingOccurrences(of: "@bindir@", with: TestProcess.productsDirectory.path).write(toFile: installed, atomically: true, encoding: .utf8)
        let verify = try await TestProcess.run(
            "/usr/bin/systemd-analyze", ["--user", "verify", installed], environment: Self.environment(["XDG_RUNTIME_DIR": runtime.path]))
        #expect(verify.status == 0)
        #expect(verify.output.isEmpty, "systemd-analyze said: \(verify.output)")
        for line in ["Type=dbus", "BusName=org.deeplinker.Deeplinker1", "Restart=on-failure", "WatchdogSec="] {
            #expect(template.contains(line), "unit lacks \(line)")
        }
    }

    @Test("under systemd the daemon reports READY=1 and feeds the watchdog")
    func watchdogNotifications() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { f in
            let notify = try NotifySocket(directory: f.root)
            try await f.startDaemon(environment: Self.environment([
                "NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000", "XDG_CONFIG_HOME": f.root,
            ]))
            var received: [String] = []
            while !(received.contains("READY=1") && received.contains("WATCHDOG=1")) {
                guard let message = notify.next() else { break }
                received.append(message)
            }
            #expect(received.first == "READY=1")
            #expect(received.contains("WATCHDOG=1"))
        }
    }
}
