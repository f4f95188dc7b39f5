import DBusKit
import DeeplinkerCore
import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// The daemon keeps the entry `install-desktop` wrote current (SPEC §8): it re-derives an override
/// when the installed entry changes (start-up and `Reload`), rewrites its actions on
/// `SetShortcuts`, falls back to the minimal entry when the app's entry is gone, and never touches
/// an entry it did not write.
@Suite struct WrittenDesktopEntryTests {
    let recipes = TestRouteFiles.recipes
    let apartments = TestRouteFiles.apartments

    static func installed(name: String, extra: String = "") -> String {
        """
        [Desktop Entry]
        Type=Application
        Name=\(name)
        Name[fr]=Meilleures Recettes
        Exec=/usr/bin/true %U
        DBusActivatable=true
        Categories=Utility;
        \(extra)
        """
    }

    @Test func anOverrideFollowsItsSourceAndItsPublishedShortcuts() async throws {
        try await DaemonFixture.withDaemon(
            routeFiles: [recipes: try TestRouteFiles.shipped(recipes), apartments: try TestRouteFiles.shipped(apartments)],
            startDaemon: false
        ) { f in
            let system = f.root + "/system"
            let fm = FileManager.default
            try fm.createDirectory(atPath: system + "/applications", withIntermediateDirectories: true)
            try fm.createDirectory(atPath: f.dataHome + "/applications", withIntermediateDirectories: true)
            let source = system + "/applications/\(recipes).desktop"
            let written = f.dataHome + "/applications/\(recipes).desktop"
            let config = try RouteFileParser.parse(try TestRouteFiles.shipped(recipes), appID: recipes, file: "\(recipes).toml")

            // What install-desktop wrote from the first version of the app's entry.
            try Self.installed(name: "Best Recipes").write(toFile: source, atomically: true, encoding: .utf8)
            let first = DesktopEntry.override(
                of: LocatedDesktopEntry(path: source, file: try DesktopFile(parsing: Self.installed(name: "Best Recipes"))),
                config: config, executable: "/opt/deeplinker/bin/deeplinker")
            try first.rendered().write(toFile: written, atomically: true, encoding: .utf8)
            // An entry deeplinker did not write is never touched.
            let own = f.dataHome + "/applications/\(apartments).desktop"
            let ownText = "[Desktop Entry]\nType=Application\nName=Mine\nExec=/usr/bin/true\n"
            try ownText.write(toFile: own, atomically: true, encoding: .utf8)

            // The app's entry changes while the daemon is not running: start-up re-derives.
            try Self.installed(name: "Best Recipes 2", extra: "Keywords=food;\n").write(toFile: source, atomically: true, encoding: .utf8)
            // The daemon's data home and a "system" data directory under the fixture's root.
            try await f.startDaemon(environment: ["XDG_DATA_DIRS": system, "HOME": f.root])
            _ = try await f.call("ListApps")
            var file = try DesktopFile(parsing: try TestFiles.read(written))
            #expect(file.value("Name") == "Best Recipes 2")
            #expect(file.value("Keywords") == "food;")
            #expect(file.value("Name[fr]") == "Meilleures Recettes")
            #expect(file.value("Exec") == "/opt/deeplinker/bin/deeplinker launch \(recipes)")
            #expect(file.value("DBusActivatable") == nil)
            #expect(file.value(DesktopEntryLocator.sourceKey) == source)
            #expect(file.list("Actions") == ["com-bestrecipes-favorites", "com-bestrecipes-search"])
            #expect(try TestFiles.read(own) == ownText)

            // SetShortcuts rewrites the actions and keeps the rest.
            try await f.call("SetShortcuts", [.string(recipes), .strings(["com.bestrecipes.search"])])
            file = try DesktopFile(parsing: try TestFiles.read(written))
            #expect(file.list("Actions") == ["com-bestrecipes-search"])
            #expect(file.value("Exec", in: "Desktop Action com-bestrecipes-search")
                == "/opt/deeplinker/bin/deeplinker shortcut \(recipes) com.bestrecipes.search")
            #expect(file.value("Name") == "Best Recipes 2")

            // The app's entry changes again: Reload re-derives, with the published shortcuts.
            try Self.installed(name: "Best Recipes 3").write(toFile: source, atomically: true, encoding: .utf8)
            _ = try await f.call("Reload")
            file = try DesktopFile(parsing: try TestFiles.read(written))
            #expect(file.value("Name") == "Best Recipes 3")
            #expect(file.value("Keywords") == nil)
            #expect(file.list("Actions") == ["com-bestrecipes-search"])
            let settled = try TestFiles.read(written)
            // Nothing changed: nothing is written (an atomic write would give the file a new inode).
            let inode = try fm.attributesOfItem(atPath: written)[.systemFileNumber] as? Int
            _ = try await f.call("Reload")
            #expect(try fm.attributesOfItem(atPath: written)[.systemFileNumber] as? Int == inode)
            #expect(try TestFiles.read(written) == settled)

            // The app's entry is gone: the written entry becomes our minimal entry, still ours.
            try fm.removeItem(atPath: source)
            try await f.stopDaemon()
            try await f.startDaemon()
            _ = try await f.call("ListApps")
            file = try DesktopFile(parsing: try TestFiles.read(written))
            #expect(file.value(DesktopEntryLocator.generatedKey) == "true")
            #expect(file.value(DesktopEntryLocator.sourceKey) == nil)
            #expect(file.value("Exec") == "/opt/deeplinker/bin/deeplinker launch \(recipes)")
            #expect(file.list("Actions") == ["com-bestrecipes-search"])
            #expect(try TestFiles.read(own) == ownText)
        }
    }
}
