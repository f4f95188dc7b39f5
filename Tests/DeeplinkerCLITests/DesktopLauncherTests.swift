import DeeplinkerClient
import DeeplinkerTestSupport
import Foundation
import Testing

/// SPEC §8 end to end, against the real launchers on temporary XDG directories: the handler entry
/// and its defaults, the override that keeps the app's installed entry, GIO launching the
/// override and its actions, and uninstall restoring the app's own entry.
@Suite struct DesktopLauncherTests {
    let app = "com.bestrecipes.App"

    static let installedEntry = """
        # Shipped by the Best Recipes package
        [Desktop Entry]
        Type=Application
        Name=Best Recipes
        Name[fr]=Meilleures Recettes
        GenericName=Recipe Book
        Comment=Cook something good
        Exec=/usr/bin/true %U
        Icon=com.bestrecipes.App
        # launchers activate it over D-Bus
        DBusActivatable=true
        Keywords=food;cooking;
        Keywords[fr]=cuisine;
        Categories=Utility;
        StartupWMClass=bestrecipes
        Actions=new-window;

        [Desktop Action new-window]
        Name=New Window
        Exec=/usr/bin/true --new-window

        """

    static let mimeappsBefore = """
        # the user's own associations
        [Default Applications]
        text/html=firefox.desktop;
        x-scheme-handler/bestrecipes=old-handler.desktop;

        [Added Associations]
        text/plain=org.gnome.TextEditor.desktop;

        """

    @Test func installWritesTheHandlerAndAnOverrideAndUninstallRestoresEverything() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { f in
            let d = DesktopLauncherFixture(f: f)
            let exe = DesktopLauncherFixture.deeplinker
            try d.installSystemEntry(app, Self.installedEntry)
            try FileManager.default.createDirectory(atPath: (d.mimeapps as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Self.mimeappsBefore.write(toFile: d.mimeapps, atomically: true, encoding: .utf8)
            let systemPath = "\(d.systemApplications)/\(app).desktop"
            let handlerPath = "\(d.userApplications)/\(app).deeplinker.desktop"
            let overridePath = "\(d.userApplications)/\(app).desktop"
            #expect(try await d.gioFilename("\(app).desktop") == systemPath)

            let install = try await d.deeplinker(["install-desktop", app])
            #expect(install.status == 0, "\(install.stderr)")
            // Then a line per domain checked, whose verdict depends on the network here.
            #expect(install.lines.filter { !$0.hasPrefix("domain ") } == [
                "wrote \(handlerPath)", "wrote \(overridePath) (override of \(systemPath))",
                "default handler for x-scheme-handler/bestrecipes",
            ])
            #expect(install.lines.filter { $0.hasPrefix("domain ") }.count == 2)
            let handler = try #require(TestFiles.readIfPresent(handlerPath))
            #expect(handler.contains("\nNoDisplay=true\n"))
            #expect(handler.contains("\nExec=\(exe) open --app \(app) %u\n"))
            #expect(handler.contains("\nMimeType=x-scheme-handler/bestrecipes;\n"))
            let override = try #require(TestFiles.readIfPresent(overridePath))
            for line in ["# Shipped by the Best Recipes package", "Name[fr]=Meilleures Recettes", "GenericName=Recipe Book",
                         "Keywords=food;cooking;", "Keywords[fr]=cuisine;", "Categories=Utility;", "StartupWMClass=bestrecipes",
                         "# launchers activate it over D-Bus", "Exec=\(exe) launch \(app)", "X-Deeplinker-Source=\(systemPath)",
                         "Actions=com-bestrecipes-favorites;com-bestrecipes-search;",
                         "Exec=\(exe) shortcut \(app) com.bestrecipes.favorites"] {
                #expect(override.contains(line + "\n"), "missing: \(line)")
            }
            #expect(!override.contains("DBusActivatable"))
            #expect(!override.contains("new-window"))
            try await d.expectValid(handlerPath)
            try await d.expectValid(overridePath)
            // desktop-entry prints exactly what was written (it follows the override to its source).
            #expect(try await d.deeplinker(["desktop-entry", app]).stdout == override)

            // The handler is the default, the previous default stays behind it, every other line is kept.
            let mimeapps = try #require(TestFiles.readIfPresent(d.mimeapps))
            #expect(mimeapps == Self.mimeappsBefore.replacingOccurrences(
                of: "x-scheme-handler/bestrecipes=old-handler.desktop;",
                with: "x-scheme-handler/bestrecipes=\(app).deeplinker.desktop;old-handler.desktop;"))
            let query = try await d.run("/usr/bin/xdg-mime", ["query", "default", "x-scheme-handler/bestrecipes"])
            #expect(query.stdout == "\(app).deeplinker.desktop\n", "\(query.stderr)")
            let gioDefault = try await d.gio("print(Gio.AppInfo.get_default_for_uri_scheme('bestrecipes').get_id())")
            #expect(gioDefault.stdout == "\(app).deeplinker.desktop\n", "\(gioDefault.stderr)")
            #expect(try await d.gioFilename("\(app).desktop") == overridePath)
            let cache = try #require(TestFiles.readIfPresent("\(d.userApplications)/mimeinfo.cache"))
            #expect(cache.contains("x-scheme-handler/bestrecipes=\(app).deeplinker.desktop;"))

            // Installing again changes nothing.
            #expect(try await d.deeplinker(["install-desktop", app]).status == 0)
            #expect(TestFiles.readIfPresent(overridePath) == override)
            #expect(TestFiles.readIfPresent(d.mimeapps) == mimeapps)

            let uninstall = try await d.deeplinker(["uninstall-desktop", app])
            #expect(uninstall.status == 0, "\(uninstall.stderr)")
            #expect(uninstall.lines == [
                "removed \(handlerPath)", "removed \(overridePath)", "removed default handler for x-scheme-handler/bestrecipes",
            ])
            #expect(TestFiles.readIfPresent(d.mimeapps) == Self.mimeappsBefore)
            #expect(try FileManager.default.contentsOfDirectory(atPath: d.userApplications).isEmpty)
            #expect(TestFiles.readIfPresent(systemPath) == Self.installedEntry)
            #expect(try await d.gioFilename("\(app).desktop") == systemPath)
            let again = try await d.deeplinker(["uninstall-desktop", app])
            #expect(again.status == 0 && again.lines == ["nothing to remove for \(app)"], "\(again.stderr)")
            #expect(TestFiles.readIfPresent(d.mimeapps) == Self.mimeappsBefore)
        }
    }

    /// An entry in the user's data home that deeplinker did not write is the app's own: never
    /// overwritten, never removed.
    @Test func theAppsOwnEntryInTheDataHomeIsLeftAlone() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { f in
            let d = DesktopLauncherFixture(f: f)
            try FileManager.default.createDirectory(atPath: d.userApplications, withIntermediateDirectories: true)
            let own = "\(d.userApplications)/\(app).desktop"
            try Self.installedEntry.write(toFile: own, atomically: true, encoding: .utf8)
            let install = try await d.deeplinker(["install-desktop", app])
            #expect(install.status == 0, "\(install.stderr)")
            #expect(install.stderr.contains("left \(own) alone"))
            #expect(TestFiles.readIfPresent(own) == Self.installedEntry)
            let uninstall = try await d.deeplinker(["uninstall-desktop", app])
            #expect(uninstall.lines.first == "removed \(d.userApplications)/\(app).deeplinker.desktop")
            #expect(TestFiles.readIfPresent(own) == Self.installedEntry)
        }
    }

    @Test func gioOpenReachesTheDaemon() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let d = DesktopLauncherFixture(f: f)
            #expect(try await d.deeplinker(["install-desktop", app]).status == 0)
            var environment = d.environment
            environment["DISPLAY"] = nil
            let (change, proxy) = try await d.firstChange(for: app) {
                let open = try await TestProcess.run("/usr/bin/gio", ["open", "bestrecipes://recipe/31"], environment: environment)
                #expect(open.status == 0, "\(open.stdout)\(open.stderr)")
            }
            defer { proxy.connection.close() }
            #expect(change.status == "pending")
            let pending = try await proxy.pending(appID: app)
            #expect(pending?.target == "recipe")
            #expect(pending?.parameters == ["id": "31"])
        }
    }

    /// GIO `launch_action` of the override's desktop action runs `deeplinker shortcut`.
    @Test func aDesktopActionPerformsTheShortcut() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let d = DesktopLauncherFixture(f: f)
            try d.installSystemEntry(app, Self.installedEntry)
            #expect(try await d.deeplinker(["install-desktop", app]).status == 0)
            let overridePath = "\(d.userApplications)/\(app).desktop"
            let (change, proxy) = try await d.firstChange(for: app) {
                let launch = try await d.gio(
                    "a = Gio.DesktopAppInfo.new_from_filename(sys.argv[1])\nprint(a.list_actions())\na.launch_action(sys.argv[2], None)",
                    [overridePath, "com-bestrecipes-favorites"])
                #expect(launch.status == 0, "\(launch.stderr)")
                // The launched `deeplinker shortcut` shares python's stdout; the pipe ends when both do.
                #expect(launch.stdout.hasPrefix("['com-bestrecipes-favorites', 'com-bestrecipes-search']\n"))
                #expect(launch.stdout.contains("route:      home(tab=favorites)\n"), "\(launch.stdout)")
            }
            defer { proxy.connection.close() }
            let history = try await proxy.history(appID: app)
            let row = try #require(history.first { $0.invocationID == change.invocationID })
            #expect(row.source == "shortcut")
            let pending = try await proxy.pending(appID: app)
            #expect(pending?.target == "home")
            #expect(pending?.parameters == ["tab": "favorites"])
        }
    }

    /// GIO `launch` of the override is a `Launch` (an icon launch): for an app with
    /// `restore-last-route`, the running app gets its last route back with source `restore`.
    @Test func launchingTheOverrideIsALaunch() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let d = DesktopLauncherFixture(f: f)
            let apartments = "com.example.Apartments"
            try d.installSystemEntry(apartments, """
                [Desktop Entry]
                Type=Application
                Name=Apartments
                Exec=/usr/bin/true %u
                Icon=com.example.Apartments
                Categories=Office;

                """)
            let install = try await d.deeplinker(["install-desktop", apartments])
            #expect(install.status == 0, "\(install.stderr)")
            let sim = try f.spawn(["simulate-app", apartments, "--active"])
            defer { sim.stop() }
            try await sim.waitForLine(containing: "state active")
            #expect(try await f.run(["open", "deeplinkTutorial://messages/7"]).status == 0)
            try await sim.waitForLine(containing: "route messages.details(id=7) source=url")

            let launch = try await d.gio(
                "a = Gio.DesktopAppInfo.new(sys.argv[1])\nprint(a.get_filename())\nprint(a.launch([], None))", ["\(apartments).desktop"])
            // `deeplinker launch` shares python's stdout: its output shows the Launch's classification.
            #expect(launch.stdout.hasPrefix("\(d.userApplications)/\(apartments).desktop\nTrue\n"), "\(launch.stderr)")
            #expect(launch.stdout.contains("kind:       app-icon\n"), "\(launch.stdout)")
            try await sim.waitForLine(containing: "route messages.details(id=7) source=restore")
            sim.send("q")
        }
    }
}
