import DBusKit
import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// ResolveURL, ListApps and the three ways route files are re-read: Reload, a directory change, SIGHUP.
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
}
