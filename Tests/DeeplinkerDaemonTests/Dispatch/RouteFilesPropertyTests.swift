import DeeplinkerProtocol
import DBusKit
import DeeplinkerClient
import DeeplinkerRouteFiles
import DeeplinkerTestSupport
import Foundation
import Testing

/// The daemon's `RouteFiles` property (`a(ssts)`: path, app id, digest, error), which `deeplinker
/// doctor` compares with the files on disk, on a real bus.
@Suite struct RouteFilesPropertyTests {
    static let recipes = TestRouteFiles.recipes
    static let broken = "org.example.Broken"

    @Test func eachFileServesTheDigestOfItsLastGoodBytes() async throws {
        let brokenText = "name = \"Broken\"\nschemes = [\"broken\"\n[targets]\nhome = {}\n"
        try await DaemonFixture.withDaemon(routeFiles: [Self.recipes: try TestRouteFiles.shipped(Self.recipes), Self.broken: brokenText]) { f in
            let proxy = try f.proxy()
            defer { proxy.connection.close() }
            let good = f.configDir + "/\(Self.recipes).toml"
            let bad = f.configDir + "/\(Self.broken).toml"
            let first = try #require(try await proxy.properties().routeFiles)
            let loaded = try #require(RouteFileDigest.ofFile(atPath: good))
            // Sorted by app id; a file that never loaded serves nothing (digest 0) and says why.
            #expect(first.map(\.appID) == [Self.recipes, Self.broken].sorted())
            #expect(first.first { $0.appID == Self.recipes } == ServedRouteFile(path: good, appID: Self.recipes, digest: loaded, error: ""))
            let never = try #require(first.first { $0.appID == Self.broken })
            #expect(never.path == bad && never.digest == 0 && never.error.hasPrefix(bad + ":3:"), "\(never)")

            // A broken edit: the app keeps its routes, so the property keeps the old digest, with the error.
            try f.writeRouteFile(Self.recipes, try TestRouteFiles.shipped(Self.recipes) + "\n[[routes]]\npath = \"/x\"\ntarget = \"missing\"\n")
            _ = try await f.failingCall("Reload", [])
            let kept = try #require(try await proxy.properties().routeFiles?.first { $0.appID == Self.recipes })
            #expect(kept.digest == loaded && kept.error.hasPrefix(good + ":") && kept.error.contains("missing"), "\(kept)")
            #expect(RouteFileDigest.ofFile(atPath: good) != loaded)

            // Fixed: the new bytes are served.
            try f.writeRouteFile(Self.recipes, try TestRouteFiles.shipped(Self.recipes) + "\n# edited\n")
            try f.writeRouteFile(Self.broken, TestRouteFiles.minimal(scheme: "broken"))
            _ = try await f.call("Reload")
            let fixed = try #require(try await proxy.properties().routeFiles)
            #expect(fixed.allSatisfy { $0.error.isEmpty && $0.digest == RouteFileDigest.ofFile(atPath: $0.path) }, "\(fixed)")
            #expect(fixed.first { $0.appID == Self.recipes }?.digest != loaded)
        }
    }

    /// FNV-1a's published test vectors, so that the daemon's and the CLI's digests are the one function.
    @Test func theDigestIsFNV1a() {
        #expect(RouteFileDigest.of([UInt8]()) == 0xcbf2_9ce4_8422_2325)
        #expect(RouteFileDigest.of(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(RouteFileDigest.of(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
    }
}
