import DBusKit
import DeeplinkerDaemon
import Foundation
import Testing
import DeeplinkerTestSupport

/// The `deeplinkerd` executable itself: flags, private bus, name conflicts, signals, unit files.
@Suite("deeplinkerd executable")
struct DeeplinkerdTests {
    static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SESSION_BUS_ADDRESS"] = nil
        env["XDG_RUNTIME_DIR"] = nil
        env.merge(extra) { $1 }
        return env
    }

    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("deeplinkerd-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static var configDir: String { TestProcess.repositoryRoot.appendingPathComponent("Config/apps").path }

    @Test("with no session bus it starts a private one, prints the address, serves, and exits 0 on SIGTERM or SIGINT",
          arguments: [SIGTERM, SIGINT])
    func privateBusAndCleanExit(stopSignal: Int32) async throws {
        let state = try Self.temporaryDirectory()
        let daemon = try TestProcess(product: "deeplinkerd", arguments: ["--config-dir", Self.configDir, "--state-dir", state], environment: Self.environment())
        let exportLine = try await daemon.stdoutLines.next(where: { $0.hasPrefix("export DBUS_SESSION_BUS_ADDRESS=") })
        let address = String(exportLine.split(separator: "=", maxSplits: 1)[1]).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
        let client = try DBusConnection(address: address)
        defer { client.close() }
        let owner = try await waitForOwner(client, DeeplinkerAPI.busName)
        #expect(owner != nil)
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
        let bus = try PrivateBus()
        let first = try await buildDaemon(DaemonConfiguration(configDirectory: Self.configDir, stateDirectory: try Self.temporaryDirectory(), busAddress: bus.address))
        let running = Task { try await first.run() }
        defer { running.cancel() }
        let second = try TestProcess(product: "deeplinkerd", arguments: ["--bus-address", bus.address, "--config-dir", Self.configDir, "--state-dir", try Self.temporaryDirectory()],
            environment: Self.environment())
        let (status, stderr) = try await second.finish()
        #expect(status != 0)
        #expect(stderr.contains("org.deeplinker.Deeplinker1 is already owned by \(first.uniqueName)"))
    }

    @Test("SIGHUP re-reads the route files")
    func hangupReloads() async throws {
        // The route file is a symlink to a file elsewhere, so editing it makes no event in the
        // watched directory: only the signal can explain the new route.
        let root = try Self.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: root + "/apps", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/real", withIntermediateDirectories: true)
        let body = "schemes = [\"notes\"]\n[targets]\nnote = { id = \"string\" }\nlist = {}\n[[routes]]\npath = \"/note/:id\"\ntarget = \"note\"\n"
        try body.write(toFile: root + "/real/org.example.Notes.toml", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/apps/org.example.Notes.toml", withDestinationPath: root + "/real/org.example.Notes.toml")
        let bus = try PrivateBus()
        // The service-manager protocol tells when the reload is done: RELOADING=1 … READY=1.
        let notify = try NotifySocket(directory: root)
        var environment = Self.environment()
        environment["NOTIFY_SOCKET"] = notify.path
        let daemon = try TestProcess(product: "deeplinkerd", arguments: ["--bus-address", bus.address, "--config-dir", root + "/apps", "--state-dir", root + "/state"],
            environment: environment)
        defer { daemon.signal(SIGKILL) }
        let client = try DBusConnection(address: bus.address)
        defer { client.close() }
        _ = try await waitForOwner(client, DeeplinkerAPI.busName)
        func resolve(_ url: String) async throws -> [DBusValue] {
            try await client.call(destination: DeeplinkerAPI.busName, path: DeeplinkerAPI.objectPath, interface: DeeplinkerAPI.interface, member: "ResolveURL", arguments: [.string("org.example.Notes"), .string(url)])
        }
        await #expect(throws: DBusError.self) { _ = try await resolve("notes://list") }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: root + "/real/org.example.Notes.toml"))
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

    @Test("--version and --help")
    func versionAndHelp() async throws {
        let version = try TestProcess(product: "deeplinkerd", arguments: ["--version"], environment: Self.environment())
        #expect(try await version.finish().status == 0)
        #expect(version.stdout == DeeplinkerAPI.version + "\n")
        let help = try TestProcess(product: "deeplinkerd", arguments: ["--help"], environment: Self.environment())
        #expect(try await help.finish().status == 0)
        for flag in ["--config-dir", "--state-dir", "--bus-address", "--version", "--help"] {
            #expect(help.stdout.contains(flag), "help lacks \(flag)")
        }
    }

    @Test("the shipped introspection XML is what the daemon describes")
    func introspectionFileMatches() throws {
        let shipped = try String(contentsOf: TestProcess.repositoryRoot.appendingPathComponent("Config/org.deeplinker.Deeplinker1.xml"), encoding: .utf8)
        #expect(shipped == DeeplinkerAPI.introspectionXML)
    }

    @Test("the D-Bus activation file starts the daemon on first call")
    func busActivation() async throws {
        let shipped = try String(contentsOf: TestProcess.repositoryRoot.appendingPathComponent("Config/org.deeplinker.Deeplinker1.service"), encoding: .utf8)
        #expect(shipped.contains("Name=org.deeplinker.Deeplinker1"))
        #expect(shipped.contains("SystemdService=deeplinkerd.service"))
        // The same file with Exec pointing at this build.
        let services = try Self.temporaryDirectory()
        let binary = TestProcess.productsDirectory.appendingPathComponent("deeplinkerd").path
        let exec = "Exec=\(binary) --config-dir \(Self.configDir) --state-dir \(try Self.temporaryDirectory())"
        let adapted = shipped.split(separator: "\n").map { $0.hasPrefix("Exec=") ? exec : String($0) }.joined(separator: "\n")
        try adapted.write(toFile: services + "/org.deeplinker.Deeplinker1.service", atomically: true, encoding: .utf8)
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
    func systemdUnitVerifies() throws {
        let runtime = try Self.temporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        // The unit as `scripts/install` writes it: @bindir@ is this build's products directory.
        let template = try String(contentsOf: TestProcess.repositoryRoot.appendingPathComponent("systemd/deeplinkerd.service"), encoding: .utf8)
        let installed = runtime + "/deeplinkerd.service"
        try template.replacingOccurrences(of: "@bindir@", with: TestProcess.productsDirectory.path).write(toFile: installed, atomically: true, encoding: .utf8)
        process.arguments = ["--user", "verify", installed]
        process.environment = Self.environment(["XDG_RUNTIME_DIR": runtime])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.isEmpty, "systemd-analyze said: \(text)")
        let unit = try String(contentsOf: TestProcess.repositoryRoot.appendingPathComponent("systemd/deeplinkerd.service"), encoding: .utf8)
        for line in ["Type=dbus", "BusName=org.deeplinker.Deeplinker1", "Restart=on-failure", "WatchdogSec="] {
            #expect(unit.contains(line), "unit lacks \(line)")
        }
    }

    @Test("under systemd the daemon reports READY=1 and feeds the watchdog")
    func watchdogNotifications() async throws {
        let directory = try Self.temporaryDirectory()
        let socketPath = directory + "/notify"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in socketPath.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        let bus = try PrivateBus()
        var environment = Self.environment(["NOTIFY_SOCKET": socketPath, "WATCHDOG_USEC": "200000"])
        environment["XDG_CONFIG_HOME"] = directory
        let daemon = try await buildDaemon(DaemonConfiguration(
            configDirectory: Self.configDir, stateDirectory: directory + "/state", busAddress: bus.address, environment: environment))
        let running = Task { try await daemon.run() }
        defer { running.cancel() }
        var received: [String] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while !(received.contains("READY=1") && received.contains("WATCHDOG=1")) {
            let count = recv(fd, &buffer, buffer.count, 0)
            #expect(count > 0)
            if count <= 0 { break }
            received.append(String(decoding: buffer[0..<count], as: UTF8.self))
        }
        #expect(received.first == "READY=1")
        #expect(received.contains("WATCHDOG=1"))
    }

    /// The name appears once the daemon has started; NameOwnerChanged tells us without polling.
    private func waitForOwner(_ client: DBusConnection, _ name: String) async throws -> String? {
        let appeared = AsyncStream<String>.makeStream()
        let id = try await client.onNameOwnerChanged(name: name) { _, _, owner in
            if !owner.isEmpty { appeared.continuation.yield(owner) }
        }
        defer { client.unsubscribe(id) }
        if let owner = try await client.nameOwner(name) { return owner }
        for await owner in appeared.stream { return owner }
        return nil
    }
}
