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
        let f = try await DaemonFixture(startDaemon: false)
        let d = DesktopLauncherFixture(f: f)
        let result = try await d.deeplinker(["desktop-entry", app])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.contains("Exec=\(DesktopLauncherFixture.deeplinker) launch com.bestrecipes.App"))
        #expect(result.lines.contains("X-Deeplinker-Generated=true"))
        #expect(result.lines.contains("Actions=com-bestrecipes-favorites;com-bestrecipes-search;"))
        #expect(result.lines.contains("Exec=\(DesktopLauncherFixture.deeplinker) shortcut com.bestrecipes.App com.bestrecipes.favorites"))
        let file = f.root.appendingPathComponent("\(app).desktop").path
        try result.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        try await d.expectValid(file)

        let published = try await d.deeplinker(["desktop-entry", app, "--shortcut", "com.bestrecipes.search", "--exec", "/opt/my tools/deeplinker"])
        #expect(published.lines.contains("Actions=com-bestrecipes-search;"))
        #expect(published.lines.contains(#"Exec="/opt/my tools/deeplinker" launch com.bestrecipes.App"#))
        let relative = try await d.deeplinker(["desktop-entry", app, "--exec", "deeplinker"])
        #expect(relative.status == 2)
        #expect(relative.stderr.contains("--exec deeplinker: the path must be absolute"))
    }

    /// An environment in which `xdg-open` and `xdg-mime` use the fixture's XDG directories and
    /// find our `deeplinker` (see `DesktopLauncherFixture`).
    static func desktopEnvironment(_ f: DaemonFixture) -> [String: String] {
        DesktopLauncherFixture(f: f).environment
    }

    /// Runs `xdg-open URL` and returns the first `InvocationChanged` it causes.
    static func xdgOpen(_ url: String, _ f: DaemonFixture, environment: [String: String]) async throws -> (InvocationChange, DeeplinkerProxy) {
        let proxy = try f.proxy()
        let changes = Recorder<InvocationChange>()
        try await proxy.onInvocationChanged { changes.put($0) }
        let open = try await DaemonFixture.runProcess("/usr/bin/xdg-open", [url], environment: environment)
        #expect(open.status == 0, "\(open.stdout)\(open.stderr)")
        return (try await changes.next(), proxy)
    }

    @Test func xdgOpenReachesTheDaemon() async throws {
        let f = try await DaemonFixture()
        let env = Self.desktopEnvironment(f)
        let install = try await DaemonFixture.runProcess(
            DaemonFixture.binary, ["install-desktop", app, "--config-dir", f.configDir], environment: env)
        #expect(install.status == 0, "\(install.stderr)")
        let dataHome = env["XDG_DATA_HOME"]!
        #expect(install.lines.first == "wrote \(dataHome)/applications/\(app).deeplinker.desktop")
        let query = try await DaemonFixture.runProcess("/usr/bin/xdg-mime", ["query", "default", "x-scheme-handler/bestrecipes"], environment: env)
        #expect(query.stdout == "\(app).deeplinker.desktop\n", "\(query.stderr)")

        let (change, proxy) = try await Self.xdgOpen("bestrecipes://recipe/12", f, environment: env)
        defer { proxy.connection.close() }
        #expect(change.appID == app)
        let pending = try await proxy.pending(appID: app)
        #expect(pending?.target == "recipe")
        #expect(pending?.parameters == ["id": "12"])
    }

    /// `xdg-open` looks a scheme's handler up as typed: `deeplinkTutorial://` must reach the daemon.
    @Test func xdgOpenFindsAMixedCaseScheme() async throws {
        let f = try await DaemonFixture()
        let apartments = "com.example.Apartments"
        let env = Self.desktopEnvironment(f)
        let install = try await DaemonFixture.runProcess(
            DaemonFixture.binary, ["install-desktop", apartments, "--config-dir", f.configDir], environment: env)
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.lines.contains("default handler for x-scheme-handler/deeplinkTutorial"))

        let (change, proxy) = try await Self.xdgOpen("deeplinkTutorial://messages/1", f, environment: env)
        defer { proxy.connection.close() }
        #expect(change.appID == apartments)
        #expect(try await proxy.pending(appID: apartments)?.target == "messages.details")
    }
}
