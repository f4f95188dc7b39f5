import DBusKit
import DeeplinkerTestSupport
import DeeplinkerClient
import Foundation
import Testing

/// `desktop-entry` is `desktop-file-validate` clean; `install-desktop` registers the scheme so
/// that `xdg-open bestrecipes://...` reaches the daemon (more in `DesktopLauncherTests`).
@Suite struct DesktopIntegrationTests {
    let app = "com.bestrecipes.App"

    /// With no installed entry, `desktop-entry` prints the minimal entry: ours, absolute, valid.
    @Test func desktopEntryIsValid() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { f in
            let d = DesktopLauncherFixture(f: f)
            let result = try await d.deeplinker(["desktop-entry", app])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.lines.contains("Exec=\(DesktopLauncherFixture.deeplinker) launch com.bestrecipes.App"))
            #expect(result.lines.contains("X-Deeplinker-Generated=true"))
            #expect(result.lines.contains("Actions=com-bestrecipes-favorites;com-bestrecipes-search;"))
            #expect(result.lines.contains("Exec=\(DesktopLauncherFixture.deeplinker) shortcut com.bestrecipes.App com.bestrecipes.favorites"))
            let file = f.root + "/\(app).desktop"
            try result.stdout.write(toFile: file, atomically: true, encoding: .utf8)
            try await d.expectValid(file)

            let published = try await d.deeplinker(["desktop-entry", app, "--shortcut", "com.bestrecipes.search", "--exec", "/opt/my tools/deeplinker"])
            #expect(published.lines.contains("Actions=com-bestrecipes-search;"))
            #expect(published.lines.contains(#"Exec="/opt/my tools/deeplinker" launch com.bestrecipes.App"#))
            let relative = try await d.deeplinker(["desktop-entry", app, "--exec", "deeplinker"])
            #expect(relative.status == 2)
            #expect(relative.stderr.contains("--exec deeplinker: the path must be absolute"))
        }
    }

    @Test func xdgOpenReachesTheDaemon() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            // xdg-open and xdg-mime use the fixture's XDG directories and find our `deeplinker`.
            let d = DesktopLauncherFixture(f: f)
            let install = try await d.deeplinker(["install-desktop", app, "--no-verify"])
            #expect(install.status == 0, "\(install.stderr)")
            #expect(install.lines.first == "wrote \(d.userApplications)/\(app).deeplinker.desktop")
            let query = try await d.run("/usr/bin/xdg-mime", ["query", "default", "x-scheme-handler/bestrecipes"])
            #expect(query.stdout == "\(app).deeplinker.desktop\n", "\(query.stderr)")

            let (change, proxy) = try await d.xdgOpen("bestrecipes://recipe/12")
            defer { proxy.connection.close() }
            #expect(change.appID == app)
            let pending = try await proxy.pending(appID: app)
            #expect(pending?.target == "recipe")
            #expect(pending?.parameters == ["id": "12"])
        }
    }

    /// `xdg-open` looks a scheme's handler up as typed: `deeplinkTutorial://` must reach the daemon.
    @Test func xdgOpenFindsAMixedCaseScheme() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let apartments = "com.example.Apartments"
            let d = DesktopLauncherFixture(f: f)
            let install = try await d.deeplinker(["install-desktop", apartments, "--no-verify"])
            #expect(install.status == 0, "\(install.stderr)")
            #expect(install.lines.contains("default handler for x-scheme-handler/deeplinkTutorial"))

            let (change, proxy) = try await d.xdgOpen("deeplinkTutorial://messages/1")
            defer { proxy.connection.close() }
            #expect(change.appID == apartments)
            #expect(try await proxy.pending(appID: apartments)?.target == "messages.details")
        }
    }
}
