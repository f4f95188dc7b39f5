import DBusKit
import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// `org.deeplinker.Error.StorageFailed` end to end: the daemon's state directory is a 1 MiB tmpfs;
/// filled up, every invocation is refused with that error (never acknowledged), and once space
/// returns the same daemon stores and answers again, with no restart.
@Suite("Faults: StorageFailed through the daemon", .serialized, .enabled(if: TmpfsMount.isAvailable, "mounting a tmpfs is refused here (needs root or CAP_SYS_ADMIN)"))
struct StorageFailedIntegrationTests {
    let recipes = TestRouteFiles.recipes

    @Test("disk full → StorageFailed naming the cause, not in history; space back → served again")
    func diskFullThenRecovery() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)], startDaemon: false) { f in
            let mount = try TmpfsMount(path: f.stateDir, size: "1m")
            defer { mount.unmount() }
            try await f.startDaemon()
            let stored = try await f.openURL(recipes, "bestrecipes://recipe/1")

            try mount.fill()
            for (member, arguments) in [
                ("OpenURL", [DBusValue.string(recipes), .string("bestrecipes://recipe/2")]),
                ("Invoke", [.string(recipes), .string("url"), .string("bestrecipes://recipe/3"), .variantDictionary([:])]),
            ] {
                let error = try await f.failingCall(member, arguments)
                #expect(error.name == "org.deeplinker.Error.StorageFailed", "\(member): \(error.name)")
                #expect(error.message.contains("full"), "the message says what failed: \(error.message)")
                #expect(error.message.contains(f.stateDir), "and names the database: \(error.message)")
            }

            #expect(try await f.history(recipes).map(\.id) == [stored.id], "nothing refused was stored")

            try mount.free()
            // The refused invocations left nothing behind: an active app gets the next route at once.
            let app = try await f.activeStandIn(recipes)
            defer { app.close() }
            let after = try await f.openURL(recipes, "bestrecipes://recipe/4")
            try await f.waitStatus(after.id, "delivered")
            #expect(app.received.all.map(\.invocationID) == [stored.id, after.id])
            // A retry of a refused call within the de-duplication window is acknowledged only once stored.
            let retry = try await f.openURL(recipes, "bestrecipes://recipe/2")
            let history = try await f.history(recipes).map(\.id)
            for acknowledged in [stored.id, after.id, retry.id] {
                #expect(history.contains(acknowledged), "every acknowledged invocation is stored: \(acknowledged)")
            }
        }
    }
}
