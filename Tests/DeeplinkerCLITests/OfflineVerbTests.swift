import DeeplinkerTestSupport
import Foundation
import Testing

/// `route` (through the daemon and offline) and `check`.
@Suite struct OfflineVerbTests {
    let app = "com.bestrecipes.App"

    @Test func routeThroughTheDaemon() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let result = try await f.run(["route", app, "bestrecipes://recipe/12", "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let body = try DaemonFixture.json(result.stdout)
            #expect(body["source"] as? String == "daemon")
            #expect(body["route_pattern"] as? String == "/recipe/:id")
            #expect(body["parameters"] as? [String: String] == ["id": "12"])
            let noRoute = try await f.run(["route", app, "bestrecipes://admin/x"])
            #expect(noRoute.status == 5)
            // Nothing was stored by the dry run.
            let history = try await f.run(["history", "--json"])
            #expect(history.stdout == "[]\n")
        }
    }

    @Test func routeOfflineExplainsEveryRoute() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { f in
            let result = try await f.run(["route", app, "bestrecipes://recipe/12", "--config-dir", f.configDir])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("not running"))
            #expect(result.lines.contains("  ✓ /recipe/:id → recipe: matched"))
            #expect(result.lines.contains { $0.hasPrefix("  ✗ /home → home:") })
            #expect(result.lines.last == "result: recipe(id=12) via /recipe/:id")

            let byURL = try await f.run(["route", "", "bestrecipes://admin/x", "--offline", "--config-dir", f.configDir, "--json"])
            #expect(byURL.status == 5)
            let body = try DaemonFixture.json(byURL.stdout)
            #expect(body["error"] as? String == "org.deeplinker.Error.NoRoute")
            #expect(body["app_id"] as? String == app)

            let unknown = try await f.run(["route", "com.nobody.App", "x://y", "--offline", "--config-dir", f.configDir])
            #expect(unknown.status == 4)
        }
    }

    @Test func routeThroughTheDaemonAlsoExplainsTheOtherRoutes() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs) { f in
            let result = try await f.run(["route", app, "bestrecipes://recipe/12", "--config-dir", f.configDir])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.lines.contains("result: recipe(id=12) via /recipe/:id (resolved by the daemon)"))
            #expect(result.lines.contains("    ✓ /recipe/:id → recipe: matched"))
            #expect(result.lines.contains { $0.hasPrefix("    ✗ /home → home:") })

            let refused = try await f.run(["route", app, "bestrecipes://admin/x", "--config-dir", f.configDir])
            #expect(refused.status == 5, "\(refused.stderr)")
            #expect(refused.stderr.contains("NoRoute"))
            #expect(refused.lines.contains("    ✓ /admin/*rest (exclude): matched"), "\(refused.stdout)")
        }
    }

    @Test func checkReportsFileLineAndColumn() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { f in
            let good = try await f.run(["check", "--config-dir", f.configDir])
            #expect(good.status == 0, "\(good.stdout)")
            #expect(good.lines.count == 2)
            #expect(good.lines.allSatisfy { $0.contains(": ok — ") })

            let bad = f.root + "/com.broken.App.toml"
            try "name = \"Broken\"\n\n[targets]\nhome = { id = \"integer\" }\n".write(toFile: bad, atomically: true, encoding: .utf8)
            let result = try await f.run(["check", bad, f.configDir + "/com.bestrecipes.App.toml"])
            #expect(result.status == 8)
            #expect(result.lines[0].hasPrefix("\(bad):4:"), "\(result.stdout)")
            #expect(result.lines[1].hasSuffix("2 shortcuts"))

            let json = try await f.run(["check", bad, "--json"])
            let rows = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect(rows.first?["ok"] as? Bool == false)
            #expect(rows.first?["line"] as? Int == 4)
        }
    }
}
