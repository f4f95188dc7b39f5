import DBusKit
import DeeplinkerTestSupport
import DeeplinkerClient
import Foundation
import Testing

/// `desktop-entry` is `desktop-file-validate` clean; `install-desktop` registers the scheme so
/// that `xdg-open bestrecipes://...` reaches the daemon.
@Suite struct DesktopIntegrationTests {
    let app = "com.bestrecipes.App"

    @Test func desktopEntryIsValid() async throws {
        let f = try await DaemonFixture(startDaemon: false)
        let result = try await f.run(["desktop-entry", app, "--config-dir", f.configDir], bus: false)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.contains("Exec=deeplinker open --app com.bestrecipes.App %u"))
        #expect(result.lines.contains("MimeType=x-scheme-handler/bestrecipes;"))
        #expect(result.lines.contains("Actions=com-bestrecipes-favorites;com-bestrecipes-search;"))
        #expect(result.lines.contains("Exec=deeplinker shortcut com.bestrecipes.App com.bestrecipes.favorites"))
        let file = f.root.appendingPathComponent("\(app).desktop").path
        try result.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let validate = try await DaemonFixture.runProcess("/usr/bin/desktop-file-validate", [file], environment: f.environment())
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        #expect(validate.stdout.isEmpty && validate.stderr.isEmpty, "\(validate.stdout)\(validate.stderr)")

        let published = try await f.run(
            ["desktop-entry", app, "--config-dir", f.configDir, "--shortcut", "com.bestrecipes.search"], bus: false)
        #expect(published.lines.contains("Actions=com-bestrecipes-search;"))
    }

    /// An environment in which `xdg-open` and `xdg-mime` use the fixture's data home and find our
    /// `deeplinker`. xdg-open's generic mode only consults x-scheme-handler defaults when DISPLAY or
    /// WAYLAND_DISPLAY is set; it never connects to the display, so any value does.
    static func desktopEnvironment(_ f: DaemonFixture) -> [String: String] {
        let binDir = URL(fileURLWithPath: DaemonFixture.binary).deletingLastPathComponent().path
        return f.environment(["PATH": binDir + ":/usr/bin:/bin", "XDG_CURRENT_DESKTOP": "", "DISPLAY": ":99"])
    }

    /// Runs `xdg-open URL` and returns the first `InvocationChanged` it causes.
    static func xdgOpen(_ url: String, _ f: DaemonFixture, environment: [String: String]) async throws -> (InvocationChange, DeeplinkerProxy) {
        let proxy = try f.proxy()
        let changes = Inbox<InvocationChange>()
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
        #expect(install.lines.first == "wrote \(dataHome)/applications/\(app).desktop")
        let query = try await DaemonFixture.runProcess("/usr/bin/xdg-mime", ["query", "default", "x-scheme-handler/bestrecipes"], environment: env)
        #expect(query.stdout == "\(app).desktop\n", "\(query.stderr)")

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
