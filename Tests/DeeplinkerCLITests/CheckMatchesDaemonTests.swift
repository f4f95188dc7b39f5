import DeeplinkerRouteFiles
import DeeplinkerTestSupport
import Foundation
import Testing

/// `deeplinker check` and the daemon read route files with the same loader: the same files fail
/// with the same messages (a name that is no app id, an oversized file, a syntax error).
@Suite struct CheckMatchesDaemonTests {
    @Test func checkReportsExactlyWhatTheDaemonLoads() async throws {
        try await DaemonFixture.withDaemon(shipped: TestRouteFiles.shippedAppIDs, startDaemon: false) { f in
            let dir = f.root + "/mixed"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let good = "schemes = [\"good\"]\n[targets]\nhome = {}\n"
            try good.write(toFile: dir + "/com.good.App.toml", atomically: true, encoding: .utf8)
            try good.write(toFile: dir + "/not an id.toml", atomically: true, encoding: .utf8)
            try "schemes = [\n".write(toFile: dir + "/com.broken.App.toml", atomically: true, encoding: .utf8)
            try String(repeating: "# padding\n", count: 110_000).write(toFile: dir + "/com.big.App.toml", atomically: true, encoding: .utf8)

            let daemon = RouteDirectory.load(directories: [dir])
            #expect(daemon.configs.keys.sorted() == ["com.good.App"])

            let check = try await f.run(["check", "--config-dir", dir, "--json"], bus: false)
            #expect(check.status == 8)
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [[String: Any]])
            let failures = rows.filter { $0["ok"] as? Bool == false }.map { "\($0["file"] as? String ?? ""):\($0["line"] as? Int ?? 0):\($0["column"] as? Int ?? 0): \($0["message"] as? String ?? "")" }
            #expect(failures.sorted() == daemon.errors.map(\.description).sorted())
            #expect(rows.filter { $0["ok"] as? Bool == true }.compactMap { $0["app_id"] as? String } == ["com.good.App"])
        }
    }
}
