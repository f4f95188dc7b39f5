import DBusKit
import DeeplinkerDaemon
import Foundation
import Testing

/// ResolveURL, ListApps and the three ways route files are re-read: Reload, a directory change, SIGHUP.
@Suite("Route files in the daemon")
struct ReloadTests {
    static let recipes = """
        schemes = ["bestrecipes"]
        domains = ["bestrecipes.com"]
        [targets]
        recipe = { id = "int" }
        [[routes]]
        path = "/recipe/:id"
        target = "recipe"
        """

    static let notes = """
        schemes = ["notes"]
        [targets]
        note = { id = "string" }
        [[routes]]
        path = "/note/:id"
        target = "note"
        """

    struct Running {
        let bus: PrivateBus
        let daemon: Daemon
        let task: Task<Void, any Error>
        let client: DBusConnection
        let configDir: String

        func call(_ member: String, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
            try await client.call(destination: DeeplinkerAPI.busName, path: DeeplinkerAPI.objectPath, interface: DeeplinkerAPI.interface, member: member, arguments: arguments)
        }

        func stop() {
            task.cancel()
            client.close()
        }
    }

    static func start(files: [String: String]) async throws -> Running {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("reload-\(UUID().uuidString)").path
        let configDir = root + "/apps"
        try FileManager.default.createDirectory(atPath: configDir, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(toFile: configDir + "/" + name, atomically: true, encoding: .utf8) }
        let bus = try PrivateBus()
        let daemon = try await buildDaemon(DaemonConfiguration(configDirectory: configDir, stateDirectory: root + "/state", busAddress: bus.address))
        let task = Task { try await daemon.run() }
        return Running(bus: bus, daemon: daemon, task: task, client: try DBusConnection(address: bus.address), configDir: configDir)
    }

    @Test("ResolveURL is a dry run: it answers the route and pattern and stores nothing")
    func resolveURL() async throws {
        let running = try await Self.start(files: ["com.bestrecipes.App.toml": Self.recipes])
        defer { running.stop() }
        let reply = try await running.call("ResolveURL", [.string(""), .string("bestrecipes://recipe/0012")])
        #expect(reply == [.string("com.bestrecipes.App"), .string("recipe"), .stringDictionary(["id": "12"]), .string("/recipe/:id")])
        let history = try await running.call("GetHistory", [.string(""), .uint32(0)])
        #expect(history.first?.arrayElements?.isEmpty == true)
    }

    @Test("Reload picks up new files; a broken file keeps its app's routes and names file, line and column")
    func reload() async throws {
        let running = try await Self.start(files: ["com.bestrecipes.App.toml": Self.recipes])
        defer { running.stop() }
        #expect(try await running.call("ListApps") == [.strings(["com.bestrecipes.App"])])
        try Self.notes.write(toFile: running.configDir + "/org.example.Notes.toml", atomically: true, encoding: .utf8)
        _ = try await running.call("Reload")
        #expect(try await running.call("ListApps") == [.strings(["com.bestrecipes.App", "org.example.Notes"])])

        try (Self.recipes + "\n[[routes]]\npath = \"/x\"\ntarget = \"missing\"\n").write(
            toFile: running.configDir + "/com.bestrecipes.App.toml", atomically: true, encoding: .utf8)
        let error = await #expect(throws: DBusError.self) { _ = try await running.call("Reload") }
        #expect(error?.name == "org.deeplinker.Error.InvalidConfig")
        #expect(error?.message.contains("com.bestrecipes.App.toml:") == true)
        #expect(error?.message.contains("missing") == true)
        // The previous routes still serve.
        let reply = try await running.call("ResolveURL", [.string("com.bestrecipes.App"), .string("bestrecipes://recipe/7")])
        #expect(reply[1] == .string("recipe"))
        #expect(try await running.call("ListApps") == [.strings(["com.bestrecipes.App", "org.example.Notes"])])
    }

    @Test("a change in the route directory is picked up without Reload")
    func directoryChange() async throws {
        let running = try await Self.start(files: ["com.bestrecipes.App.toml": Self.recipes])
        defer { running.stop() }
        try Self.notes.write(toFile: running.configDir + "/org.example.Notes.toml", atomically: true, encoding: .utf8)
        // The reload follows the inotify event; ask until it has happened (bounded).
        let deadline = ContinuousClock.now + .seconds(10)
        var apps: [String] = []
        while ContinuousClock.now < deadline {
            apps = try await running.call("ListApps").first?.stringArray ?? []
            if apps.contains("org.example.Notes") { break }
            await Task.yield()
        }
        #expect(apps == ["com.bestrecipes.App", "org.example.Notes"])
    }
}
