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

    @Test func xdgOpenReachesTheDaemon() async throws {
        let f = try await DaemonFixture()
        let binDir = URL(fileURLWithPath: DaemonFixture.binary).deletingLastPathComponent().path
        // xdg-open's generic mode only consults x-scheme-handler defaults when DISPLAY or
        // WAYLAND_DISPLAY is set; it never connects to the display, so any value does.
        let env = f.environment(["PATH": binDir + ":/usr/bin:/bin", "XDG_CURRENT_DESKTOP": "", "DISPLAY": ":99"])
        let install = try await DaemonFixture.runProcess(
            DaemonFixture.binary, ["install-desktop", app, "--config-dir", f.configDir], environment: env)
        #expect(install.status == 0, "\(install.stderr)")
        let dataHome = env["XDG_DATA_HOME"]!
        #expect(install.lines.first == "wrote \(dataHome)/applications/\(app).desktop")
        let query = try await DaemonFixture.runProcess("/usr/bin/xdg-mime", ["query", "default", "x-scheme-handler/bestrecipes"], environment: env)
        #expect(query.stdout == "\(app).desktop\n", "\(query.stderr)")

        let proxy = try f.proxy()
        defer { proxy.connection.close() }
        let changes = Inbox<InvocationChange>()
        try await proxy.onInvocationChanged { changes.put($0) }
        let open = try await DaemonFixture.runProcess("/usr/bin/xdg-open", ["bestrecipes://recipe/12"], environment: env)
        #expect(open.status == 0, "\(open.stdout)\(open.stderr)")
        let change = try await changes.next()
        #expect(change.appID == app)
        let pending = try await proxy.pending(appID: app)
        #expect(pending?.target == "recipe")
        #expect(pending?.parameters == ["id": "12"])
    }

    /// `xdg-open` looks a scheme's handler up as typed: `deeplinkTutorial://` must reach the daemon.
    @Test func xdgOpenFindsAMixedCaseScheme() async throws {
        let f = try await DaemonFixture()
        let apartments = "com.example.Apartments"
        let binDir = URL(fileURLWithPath: DaemonFixture.binary).deletingLastPathComponent().path
        let env = f.environment(["PATH": binDir + ":/usr/bin:/bin", "XDG_CURRENT_DESKTOP": "", "DISPLAY": ":99"])
        let install = try await DaemonFixture.runProcess(
            DaemonFixture.binary, ["install-desktop", apartments, "--config-dir", f.configDir], environment: env)
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.lines.contains("default handler for x-scheme-handler/deeplinkTutorial"))

        let proxy = try f.proxy()
        defer { proxy.connection.close() }
        let changes = Inbox<InvocationChange>()
        try await proxy.onInvocationChanged { changes.put($0) }
        let open = try await DaemonFixture.runProcess("/usr/bin/xdg-open", ["deeplinkTutorial://messages/1"], environment: env)
        #expect(open.status == 0, "\(open.stdout)\(open.stderr)")
        let change = try await changes.next()
        #expect(change.appID == apartments)
        #expect(try await proxy.pending(appID: apartments)?.target == "messages.details")
    }
}
