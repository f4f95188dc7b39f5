import DBusKit
import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// `org.deeplinker.Error.StorageFailed` end to end for an I/O error and a read-only file system:
/// the daemon's state directory is a ``FaultyFileSystem``; while it fails, every invocation is
/// refused with that error naming the database and the errno (never acknowledged), the daemon
/// keeps answering and keeps what it acknowledged before; once the file system works again the
/// same daemon stores and delivers, with no restart; a later restart finds every acknowledged
/// invocation.
@Suite(
    "Faults: I/O error and read-only file system through the daemon", .serialized,
    .safetySuite(if: FaultyFileSystem.isAvailable, FaultyFileSystem.unavailableReason))
struct FileSystemFaultIntegrationTests {
    let recipes = TestRouteFiles.recipes

    @Test("fault → StorageFailed naming the errno, acknowledged ones kept; healed → served again without restart", arguments: [
        FileSystemFault.ioError, .readOnly,
    ])
    func faultThenRecovery(_ fault: FileSystemFault) async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)], startDaemon: false) { f in
            let backing = (f.stateDir as NSString).deletingLastPathComponent + "/state-backing"
            try FileManager.default.createDirectory(atPath: backing, withIntermediateDirectories: true)
            let fs = try await FaultyFileSystem(backing: backing, mountPoint: f.stateDir)
            defer { fs.unmount() }
            try await f.startDaemon()
            let stored = try await f.openURL(recipes, "bestrecipes://recipe/1")

            try await fs.inject(fault)
            for (member, arguments) in [
                ("OpenURL", [DBusValue.string(recipes), .string("bestrecipes://recipe/2")]),
                ("Invoke", [.string(recipes), .string("url"), .string("bestrecipes://recipe/3"), .variantDictionary([:])]),
            ] {
                let error = try await f.failingCall(member, arguments)
                #expect(error.name == "org.deeplinker.Error.StorageFailed", "\(member): \(error.name)")
                #expect(error.message.contains(fault.expectedMessage), "the message says what failed: \(error.message)")
                #expect(error.message.contains(f.stateDir), "and names the database: \(error.message)")
            }
            // The daemon is up and still has what it acknowledged; nothing refused is there.
            #expect(try await f.history(recipes).map(\.id) == [stored.id])
            #expect(try await f.pending(recipes)?.id == stored.id)

            try await fs.inject(.none)
            let app = try await f.activeStandIn(recipes)
            defer { app.close() }
            let after = try await f.openURL(recipes, "bestrecipes://recipe/4")
            try await f.waitStatus(after.id, "delivered")
            #expect(app.received.all.map(\.invocationID) == [stored.id, after.id])
            let retry = try await f.openURL(recipes, "bestrecipes://recipe/2")
            let acknowledged = [stored.id, after.id, retry.id]

            // Nothing acknowledged is lost: a new daemon on the same files has every one.
            try await f.stopDaemon()
            try await f.startDaemon()
            let history = try await f.history(recipes).map(\.id)
            for id in acknowledged {
                #expect(history.contains(id), "acknowledged \(id) is stored: \(history)")
            }
            #expect(history.count == acknowledged.count, "and nothing refused: \(history)")
            try await f.stopDaemon()
        }
    }

    @Test("a failed sync: StorageFailed to the call that waited, nothing acknowledged after, an error naming the file and errno, a non-zero exit; a restart keeps what was acknowledged")
    func failedSyncStopsTheDaemon() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)], startDaemon: false) { f in
            let backing = (f.stateDir as NSString).deletingLastPathComponent + "/state-backing"
            try FileManager.default.createDirectory(atPath: backing, withIntermediateDirectories: true)
            let fs = try await FaultyFileSystem(backing: backing, mountPoint: f.stateDir)
            defer { fs.unmount() }
            let daemon = try await f.spawnDaemonProcess()
            var acknowledged: [String] = []
            for n in 1...3 { acknowledged.append(try await f.openURL(recipes, "bestrecipes://recipe/\(n)").id) }

            try await fs.inject(.syncIOError)
            let error = try await f.failingCall("OpenURL", [.string(recipes), .string("bestrecipes://recipe/4")])
            #expect(error.name == "org.deeplinker.Error.StorageFailed", "\(error.name)")
            #expect(error.message.contains("fdatasync") && error.message.contains("EIO"), "\(error.message)")
            // Nothing more is acknowledged: a refusal, or no daemon any more.
            do {
                let late = try await f.openURL(recipes, "bestrecipes://recipe/5")
                Issue.record("acknowledged after the failed sync: \(late.id)")
            } catch {}
            let (status, stderr) = try await daemon.finish()
            #expect(status != 0, "exits non-zero: \(stderr)")
            #expect(stderr.contains(f.stateDir + "/deeplinker.sqlite-wal") && stderr.contains("Input/output error (EIO)"),
                "the log names the file and the errno: \(stderr)")

            // The unit restarts it; SQLite's recovery keeps what is on disk.
            try await fs.inject(.none)
            try await f.startDaemon()
            let history = try await f.history(recipes).map(\.id)
            for id in acknowledged { #expect(history.contains(id), "acknowledged \(id) is kept: \(history)") }
            try await f.stopDaemon()
        }
    }
}
