import Foundation
import Testing
import DeeplinkerTestSupport

/// The verbs around `delivery = "open"` and `GetInvocation` (SPEC §7): `check` validates the
/// `[open]` table, `route` shows the URI `Open` would get, `show` prints one invocation.
@Suite struct OpenAndShowVerbTests {
    static let app = "org.example.Notes"
    static let routes = """
        schemes = ["notes"]
        delivery = "open"
        launch = "none"

        [targets]
        note = { name = "string" }

        [[routes]]
        path = "/open/:name"
        target = "note"

        [open]
        note = "file:///srv/notes/{name}.txt"
        """

    @Test func checkNamesLineAndColumnOfABadTemplate() async throws {
        try await DaemonFixture.withDaemon(startDaemon: false) { f in
            let path = f.root + "/\(Self.app).toml"
            try Self.routes.replacingOccurrences(of: "{name}.txt", with: "{title}.txt").write(toFile: path, atomically: true, encoding: .utf8)
            let result = try await f.run(["check", path], bus: false)
            #expect(result.status == 8, "\(result.output)")
            #expect(result.output.contains("\(Self.app).toml:13:8: open.note: invalid URI template"), "\(result.output)")
            #expect(result.output.contains("placeholder {title} names no parameter of the target"))
        }
    }

    @Test func routeShowsTheURIOpenGetsFromTheDaemonsAnswer() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.app: Self.routes]) { f in
            let result = try await f.run(["route", Self.app, "notes://open/a%20list", "--config-dir", f.configDir])
            #expect(result.status == 0, "\(result.output)")
            #expect(result.stdout.contains("(resolved by the daemon)\nopens: file:///srv/notes/a%20list.txt\n"), "\(result.stdout)")
            let json = try await f.run(["route", Self.app, "notes://open/x", "--config-dir", f.configDir, "--json"])
            #expect(try DaemonFixture.json(json.stdout)["open_uri"] as? String == "file:///srv/notes/x.txt")
        }
    }

    @Test func showPrintsOneInvocationAndRefusesAnUnknownOne() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.app: Self.routes]) { f in
            let id = try await f.openURL(Self.app, "notes://open/shopping").id
            let shown = try await f.run(["show", id])
            #expect(shown.status == 0, "\(shown.output)")
            #expect(shown.stdout.contains("invocation: \(id)\napp:        \(Self.app)\nsource:     url\nurl:        notes://open/shopping\nroute:      note(name=shopping)\nstatus:     pending\n"), "\(shown.stdout)")
            #expect(shown.stdout.hasSuffix("attempts:   0\ndetail:     -\n"))
            let json = try DaemonFixture.json(try await f.run(["show", id, "--json"]).stdout)
            #expect(json["invocation_id"] as? String == id && json["detail"] as? String == "" && json["status"] as? String == "pending")
            let unknown = try await f.run(["show", "0f8c2a8e-0000-4a53-9d0e-3f7e2b1c9a10"])
            #expect(unknown.status == 4, "\(unknown.output)")
            #expect(unknown.stderr.contains("UnknownInvocation") && unknown.stderr.contains("0f8c2a8e-0000-4a53-9d0e-3f7e2b1c9a10"), "\(unknown.stderr)")
        }
    }
}
