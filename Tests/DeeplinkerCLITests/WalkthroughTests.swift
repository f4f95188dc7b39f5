import DBusKit
import Foundation
import Testing
import DeeplinkerTestSupport

/// The newcomer's path of `docs/routing-to-unmodified-apps.md`, run as written (SPEC §5, §6, §8):
/// its ```` ```sh walkthrough ```` blocks, in order, in bash, from an empty home, against a real
/// `deeplinkerd` that started before the route folder existed, with Debian's Mousepad under Xvfb.
@Suite(.serialized) struct WalkthroughTests {
    static let document = "docs/routing-to-unmodified-apps.md"
    static let app = "org.xfce.mousepad"

    /// What the path must still teach: the folder, the route file, `check`, the handler, the link.
    static let essentials = [
        "mkdir -p ~/.config/deeplinker/apps", "~/.config/deeplinker/apps/\(app).toml", "deeplinker check",
        "deeplinker install-desktop \(app)", "xdg-open notes://open/shopping",
    ]

    @Test func theRoutingGuidesFirstLinkOpensMousepadOnceAsWritten() async throws {
        let walkthrough = try DocumentWalkthrough(repositoryFile: Self.document)
        for essential in Self.essentials {
            #expect(walkthrough.text.contains(essential), "\(Self.document) no longer runs `\(essential)`")
        }
        try await X11Session.with { x in
            let root = try TemporaryDirectory(prefix: "deeplinker-walkthrough")
            defer { root.remove() }
            try await DaemonFixture.withDaemon(startDaemon: false) { f in
                let environment = try Self.environment(root: root, display: x.display, bus: f.bus.address)
                let home = environment["HOME"] ?? ""
                // The daemon as a session runs it: no --config-dir, and no ~/.config yet, so it
                // waits for its route folder in the nearest folder that exists, the home.
                let daemon = try TestProcess(product: "deeplinkerd", arguments: [], environment: environment)
                defer { daemon.stop() }
                try await daemon.waitForErrorLine(containing: "watching \(home) for .config/deeplinker/apps to appear")
                do {
                    try await f.nameOwners.wait { !$0.isEmpty }
                } catch {
                    throw DBusError.failed("deeplinkerd did not take its name: \(error); stderr: \(daemon.stderr)")
                }
                let windows = try WindowList(x)
                defer { windows.stop() }

                let routeFolder = home + "/.config/deeplinker/apps"
                for step in walkthrough.steps {
                    let before = Self.routeFiles(in: routeFolder)
                    let result = try await TestProcess.run("/bin/bash", ["-euo", "pipefail", "-c", step.script], environment: environment)
                    try #require(result.status == 0, "\(Self.document), \(step)\nexit \(result.status)\n\(result.output)")
                    // A step that wrote a route file: the daemon reads it with no reload, as a person
                    // typing the next command would find (its watcher waits 0.2 s for more changes).
                    // A file it refuses is left to the next steps (`check`) to report.
                    let after = Self.routeFiles(in: routeFolder)
                    if after != before {
                        let loaded = "loaded route files for \(after.count) apps"
                        try await daemon.stderrLines.next(where: { $0.contains(loaded) || $0.contains("reload after a change") }, timeout: .seconds(5))
                    }
                }

                // The link started Mousepad from its desktop entry; the route went out by Open once
                // it owned its name, and its window shows the note.
                let delivered = try await f.changes.first(timeout: .seconds(30)) { $0.appID == Self.app && $0.status == "delivered" }
                try await windows.waitForTitle(matching: "shopping\\.txt - Mousepad")
                let history = try await TestProcess.run(
                    TestProcess.product("deeplinker"), ["history", Self.app, "--json"], environment: environment)
                let rows = try #require(try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])
                #expect(rows.count == 1, "one link, one invocation: \(history.stdout)")
                #expect(rows.first?["invocation_id"] as? String == delivered.invocationID)
                #expect(rows.first?["status"] as? String == "delivered", "\(history.stdout)")
                #expect(f.changes.count { $0.status == "delivered" } == 1, "\(f.changes.all)")
                let titles = try await windows.titles()
                #expect(titles.count { $0.hasSuffix(" - Mousepad") } == 1, "\(titles)")
            }
        }
    }

    /// The route files in `folder` with their modification times (empty when it does not exist).
    static func routeFiles(in folder: String) -> [String: Date] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var files: [String: Date] = [:]
        for name in names where name.hasSuffix(".toml") {
            files[name] = (try? FileManager.default.attributesOfItem(atPath: folder + "/" + name))?[.modificationDate] as? Date ?? .distantPast
        }
        return files
    }

    /// A session of one's own: an empty home with the default XDG folders named, the display, the
    /// private bus as the session bus, the built `deeplinker` first on `PATH`. `BROWSER=false`
    /// keeps `xdg-open` from trying a web browser when no handler is registered (it fails instead).
    static func environment(root: TemporaryDirectory, display: String, bus: String) throws -> [String: String] {
        let home = root.appending("home")
        let runtime = root.appending("run")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return [
            "PATH": TestProcess.productsDirectory.path + ":/usr/local/bin:/usr/bin:/bin",
            "HOME": home, "LANG": "C.UTF-8", "USER": ProcessInfo.processInfo.environment["USER"] ?? "root",
            "XDG_CONFIG_HOME": home + "/.config", "XDG_DATA_HOME": home + "/.local/share", "XDG_STATE_HOME": home + "/.local/state",
            "XDG_CACHE_HOME": home + "/.cache", "XDG_RUNTIME_DIR": runtime,
            "XDG_DATA_DIRS": "/usr/local/share:/usr/share", "XDG_CONFIG_DIRS": "/etc/xdg",
            "DISPLAY": display, "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1", "GSETTINGS_BACKEND": "memory",
            "DBUS_SESSION_BUS_ADDRESS": bus, "BROWSER": "false",
        ]
    }
}
