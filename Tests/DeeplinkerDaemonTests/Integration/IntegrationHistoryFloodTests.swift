import DBusKit
import Testing
import DeeplinkerTestSupport

/// History under a flood, through the daemon on a real bus: one app's flood of `OpenURL`s leaves
/// another app's history alone.
@Suite("Integration: history under a flood")
struct IntegrationHistoryFloodTests {
    let recipes = TestRouteFiles.recipes
    let apartments = TestRouteFiles.apartments

    @Test("a flood for one app keeps another app's newest 50 in its history")
    func floodKeepsOtherAppsHistory() async throws {
        try await DaemonFixture.withDaemon(
            routeFiles: [recipes: try TestRouteFiles.shipped(recipes), apartments: try TestRouteFiles.shipped(apartments)],
            startDaemon: false
        ) { f in
            try await f.startDaemon(historyLimit: 1_000)
            var quiet: [String] = []
            for i in 0..<50 { quiet.append(try await f.openURL(apartments, "deeplinkTutorial://messages/\(i)").id) }
            // Eight callers at a time, so the daemon commits in groups as it does under a real flood.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<8 {
                    group.addTask {
                        for i in stride(from: lane, to: 1_400, by: 8) {
                            _ = try await f.openURL(recipes, "bestrecipes://recipe/\(i)")
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await f.history(apartments).map(\.id) == quiet.reversed())
            let all = try await f.history()
            #expect(all.count >= 1_000 && all.count <= 1_100, "the flood was trimmed, in a batch: \(all.count)")
            #expect(all.filter { $0.appID == recipes }.count < 1_400)
        }
    }
}
