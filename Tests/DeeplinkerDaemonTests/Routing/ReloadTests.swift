import DBusKit
import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// ResolveURL, ListApps and the three ways route files are re-read: Reload, a directory change
/// (also of a folder created after the start), SIGHUP.
@Suite("Route files in the daemon")
struct ReloadTests {
    static let recipes = TestRouteFiles.recipes
    static let notes = "org.example.Notes"

    @Test("ResolveURL is a dry run: it answers the route and pattern and stores nothing")
    func resolveURL() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.recipes: try TestRouteFiles.shipped(Self.recipes)]) { f in
            let reply = try await f.call("ResolveURL", [.string(""), .string("bestrecipes://recipe/0012")])
            #expect(reply == [.string(Self.recipes), .string("recipe"), .stringDictionary(["id": "12"]), .string("/recipe/:id")])
            let history = try await f.call("GetHistory", [.string(""), .uint32(0)])
            #expect(history.first?.arrayElements?.isEmpty == true)
        }
    }

    @Test("Reload picks up new files; a broken file keeps its app's routes and names file, line and column")
    func reload() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.recipes: try TestRouteFiles.shipped(Self.recipes)]) { f in
            #expect(try await f.call("ListApps") == [.strings([Self.recipes])])
            try f.writeRouteFile(Self.notes, TestRouteFiles.minimal(scheme: "notes"))
            _ = try await f.call("Reload")
            #expect(try await f.call("ListApps") == [.strings([Self.recipes, Self.notes])])

            try f.writeRouteFile(Self.recipes, try TestRouteFiles.shipped(Self.recipes) + "\n[[routes]]\npath = \"/x\"\ntarget = \"missing\"\n")
            let error = await #expect(throws: DBusError.self) { _ = try await f.call("Reload") }
            #expect(error?.name == "org.deeplinker.Error.InvalidConfig")
            #expect(error?.message.contains("\(Self.recipes).toml:") == true)
            #expect(error?.message.contains("missing") == true)
            // The previous routes still serve.
            let reply = try await f.call("ResolveURL", [.string(Self.recipes), .string("bestrecipes://recipe/7")])
            #expect(reply[1] == .string("recipe"))
            #expect(try await f.call("ListApps") == [.strings([Self.recipes, Self.notes])])
        }
    }

    @Test("a change in the route directory is picked up without Reload")
    func directoryChange() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.recipes: try TestRouteFiles.shipped(Self.recipes)], startDaemon: false) { f in
            // The service-manager protocol says when a reload is done: RELOADING=1 … READY=1.
            let notify = try NotifySocket(directory: f.root)
            try await f.startDaemon(environment: ["NOTIFY_SOCKET": notify.path])
            var pings = 0
            while let message = notify.nextState(pings: &pings), !message.hasPrefix("STATUS=") {}
            try f.writeRouteFile(Self.notes, TestRouteFiles.minimal(scheme: "notes"))
            // The reload follows the inotify events (one or more reloads: the file is written
            // under a temporary name, then renamed); after each, ask.
            var apps: [String] = []
            while let message = notify.nextState(pings: &pings) {
                guard message == "READY=1" else { continue }
                apps = try await f.call("ListApps").first?.stringArray ?? []
                if apps.contains(Self.notes) { break }
            }
            #expect(apps == [Self.recipes, Self.notes])
        }
    }

    @Test("a route folder created after the start, two levels down, is served without Reload")
    func folderCreatedLater() async throws {
        try await DaemonFixture.withDaemon(startDaemon: false) { f in
            let folder = f.root + "/later/deeplinker/apps"
            let notify = try NotifySocket(directory: f.root)
            try await f.startDaemon(environment: ["NOTIFY_SOCKET": notify.path], configDirectory: folder)
            var pings = 0
            while let message = notify.nextState(pings: &pings), !message.hasPrefix("STATUS=") {}
            #expect(try await f.call("ListApps") == [.strings([])])
            try TestFiles.write(TestRouteFiles.minimal(scheme: "notes"), to: folder + "/\(Self.notes).toml")
            let apps = try await Self.appsAfterReloads(f, notify, &pings) { $0.contains(Self.notes) }
            #expect(apps == [Self.notes])
            let reply = try await f.call("ResolveURL", [.string(""), .string("notes://page/1")])
            #expect(reply.first == .string(Self.notes))
        }
    }

    @Test("a route folder removed stops serving its apps, and serves them again when made again")
    func folderRemovedAndMadeAgain() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.notes: TestRouteFiles.minimal(scheme: "notes")], startDaemon: false) { f in
            let notify = try NotifySocket(directory: f.root)
            try await f.startDaemon(environment: ["NOTIFY_SOCKET": notify.path])
            var pings = 0
            while let message = notify.nextState(pings: &pings), !message.hasPrefix("STATUS=") {}
            #expect(try await f.call("ListApps") == [.strings([Self.notes])])
            try FileManager.default.removeItem(atPath: f.configDir)
            let gone = try await Self.appsAfterReloads(f, notify, &pings) { $0.isEmpty }
            #expect(gone == [])
            try TestFiles.write(TestRouteFiles.minimal(scheme: "notes"), to: f.configDir + "/\(Self.notes).toml")
            let again = try await Self.appsAfterReloads(f, notify, &pings) { $0.contains(Self.notes) }
            #expect(again == [Self.notes])
        }
    }

    /// `ListApps` after each reload the daemon reports (RELOADING=1 … READY=1), until `done`
    /// holds or no reload comes within the notify socket's time-out; nil when none came.
    static func appsAfterReloads(
        _ f: DaemonFixture, _ notify: NotifySocket, _ pings: inout Int, until done: ([String]) -> Bool
    ) async throws -> [String]? {
        var apps: [String]?
        while let message = notify.nextState(pings: &pings) {
            guard message == "READY=1" else { continue }
            apps = try await f.call("ListApps").first?.stringArray ?? []
            if let apps, done(apps) { break }
        }
        return apps
    }
}
