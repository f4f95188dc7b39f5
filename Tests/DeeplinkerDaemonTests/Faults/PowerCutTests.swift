import DBusKit
import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import SQLite
import Testing

/// SPEC §6's promise against a power cut, on the real `deeplinkerd`: its state directory is a
/// ``FaultyFileSystem`` in power-cut mode (writes stay in the file system's cache until synced).
/// Several client connections call `OpenURL` while an active stand-in app takes the deliveries;
/// at a random moment the daemon is killed with SIGKILL and, once it is reaped, everything not
/// synced is dropped. What survived is then checked, before and after a restart on it:
/// - every invocation whose `OpenURL` reply arrived is in the database (read from a copy of the
///   surviving files) and in `GetHistory` of the restarted daemon;
/// - `PRAGMA integrity_check` of the surviving files is `ok`, and the daemon started on them
///   without setting the database aside (no `.corrupt-*` file);
/// - no route the app acknowledged comes back as a new delivery: an invocation whose `delivered`
///   record had reached the disk (it is `delivered` in the surviving files) is never delivered
///   again, and an id delivered twice by one daemon carries `deeplinker.redelivery`. A delivery
///   whose `delivering` or `delivered` record was lost may come again with the same id (SPEC §6),
///   which is counted, not failed.
///
/// Why SIGKILL before the cut, and the cut only once the daemon is reaped: a process is reaped
/// only after its last system call ended, and the kernel answers (or withdraws) every FUSE request
/// of a dying process before it exits, so nothing the daemon does can land in the cache after the
/// cut. Cutting first would let writes made after the "power loss" survive (and a later sync make
/// them durable), which no real power cut does. The replies the daemon sent before it died still
/// arrive and count as acknowledged: it sent them only after their sync.
///
/// `DEEPLINKER_POWER_CUTS` sets the number of cuts (20 by default, the CI run; up to about 100,
/// as history keeps 10,000 rows and every acknowledged id is looked up; `scripts/soak
/// --power-cuts N` for long runs) and `DEEPLINKER_POWER_CUT_SEED` repeats a run's cut points
/// (each run prints its seed).
@Suite(
    "Faults: power cuts under load", .serialized,
    .safetySuite(if: FaultyFileSystem.isAvailable, FaultyFileSystem.unavailableReason))
struct PowerCutTests {
    let recipes = TestRouteFiles.recipes
    let clients = 4

    @Test("power cuts under load: nothing acknowledged lost, the database opens untouched, no acknowledged route delivered again")
    func powerCutsUnderLoad() async throws {
        let environment = ProcessInfo.processInfo.environment
        let cuts = environment["DEEPLINKER_POWER_CUTS"].flatMap { Int($0) } ?? 20
        let seed = environment["DEEPLINKER_POWER_CUT_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...999_999_999)
        print("power cuts: seed \(seed), \(cuts) cuts (DEEPLINKER_POWER_CUT_SEED=\(seed) repeats the cut points)")
        var random = SplitMix(seed: seed)
        let started = ContinuousClock.now

        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)], startDaemon: false) { f in
            let backing = f.root + "/state-backing"
            try FileManager.default.createDirectory(atPath: backing, withIntermediateDirectories: true)
            let fs = try await FaultyFileSystem(backing: backing, mountPoint: f.stateDir, powerCut: true)
            let daemon = Locked<TestProcess?>(nil)
            defer {
                daemon.value?.signal(SIGKILL)
                fs.unmount()
            }
            let app = try await f.standIn(recipes)
            defer { app.close() }
            let acknowledged = Recorder<String>()
            var survivors = Survivors()
            var totals = Totals()

            for round in 1...(cuts + 1) {
                // Restart on what survived.
                let before = app.received.count { _ in true }
                let process = try await f.spawnDaemonProcess()
                daemon.set(process)
                let names = try FileManager.default.contentsOfDirectory(atPath: backing)
                try #require(names.allSatisfy { !$0.contains(".corrupt-") }, "start \(round) set the database aside: \(names); \(process.stderr)")
                let history = Set(try await f.history(recipes).map(\.id))
                let missing = acknowledged.all.filter { !history.contains($0) }
                try #require(missing.count == 0, "start \(round): \(missing.count) acknowledged invocations missing from GetHistory: \(missing.prefix(3))")
                try app.becomeActive()
                #expect(try await app.stateSeenByDaemon() == "active")

                if round == cuts + 1 {
                    // The last start: once a new invocation is delivered, every route the daemon
                    // redelivers at BecameActive has arrived too.
                    _ = try await f.barrier(app, url: "bestrecipes://recipe/\(round * 1_000_000)")
                    check(app.received.all[before...], survivors: survivors, start: round, totals: &totals)
                    process.signal(SIGTERM)
                    _ = try await process.waitForExit()
                    break
                }

                // Load from several connections; the cut comes after a random number of
                // acknowledged calls or deliveries.
                let onDeliveries = Bool.random(using: &random)
                let count = Int.random(in: 10...150, using: &random)
                let connections = try (0..<clients).map { _ in try f.connect() }
                defer { for connection in connections { connection.close() } }
                let acknowledgedBefore = acknowledged.count { _ in true }
                let failures = Recorder<String>()
                let cut: FaultyFileSystem.Cut = try await withThrowingTaskGroup(of: FaultyFileSystem.Cut?.self) { group in
                    for (client, connection) in connections.enumerated() {
                        group.addTask { [recipes] in
                            var i = 0
                            while true {
                                i += 1
                                let url = "bestrecipes://recipe/\(round * 1_000_000 + client * 100_000 + i)"
                                do {
                                    acknowledged.put(try await f.openURL(recipes, url, from: connection).id)
                                } catch {
                                    failures.put((error as? DBusError)?.name ?? "\(error)")
                                    return nil
                                }
                            }
                        }
                    }
                    group.addTask {
                        do {
                            if onDeliveries {
                                try await app.received.wait(count: before + count, timeout: .seconds(60)) { _ in true }
                            } else {
                                try await acknowledged.wait(count: acknowledgedBefore + count, timeout: .seconds(60)) { _ in true }
                            }
                        } catch {
                            process.signal(SIGKILL)  // ends the clients' loops
                            throw error
                        }
                        process.signal(SIGKILL)
                        _ = try await process.waitForExit()
                        return try await fs.cut()
                    }
                    var cut: FaultyFileSystem.Cut?
                    for try await result in group { cut = cut ?? result }
                    return try #require(cut)
                }
                #expect(process.endedBySignal)
                daemon.set(nil)
                let inRound = acknowledged.count { _ in true } - acknowledgedBefore
                let delivered = app.received.count { _ in true } - before

                // What survived, read from a copy so that the daemon's own start meets the files as
                // the cut left them.
                let stored = try Self.surviving(backing: backing, copy: f.root + "/copy-\(round)")
                try #require(stored.integrity == "ok", "cut \(round): integrity_check says \(stored.integrity)")
                let lost = acknowledged.all.filter { stored.statuses[$0] == nil }
                try #require(lost.count == 0, "cut \(round) (seed \(seed)): \(lost.count) acknowledged invocations lost: \(lost.prefix(3))")
                totals.lost += lost.count
                let acknowledgedByApp = Set(app.received.all.map(\.invocationID))
                let claimed = stored.statuses.filter { $0.value == "delivered" && !acknowledgedByApp.contains($0.key) }
                #expect(claimed.count == 0, "cut \(round): delivered but never acknowledged by the app: \(claimed.keys.prefix(3))")
                check(app.received.all[before...], survivors: survivors, start: round, totals: &totals)
                survivors.delivered.formUnion(stored.statuses.filter { $0.value == "delivered" }.keys)
                survivors.seen.formUnion(app.received.all[before...].map(\.invocationID))
                totals.acknowledged += inRound
                totals.deliveries += delivered
                totals.droppedBytes += cut.bytes
                print("power cut \(round): after \(count) \(onDeliveries ? "deliveries" : "acknowledged calls"); "
                    + "\(inRound) acknowledged, \(delivered) delivered, dropped \(cut), stored \(stored.statuses.count), "
                    + "lost \(lost.count), cut-off calls \(failures.count { _ in true })")
            }
            print("power cuts: seed \(seed), \(cuts) cuts, \(totals.acknowledged) acknowledged, \(totals.deliveries) deliveries, "
                + "lost \(totals.lost), delivered again after a cut \(totals.redeliveredAfterCut) (same id), "
                + "acknowledged routes delivered again \(totals.violations), dropped \(totals.droppedBytes) bytes, "
                + "\(ContinuousClock.now - started)")
            #expect(totals.acknowledged >= cuts * 10)
        }
    }

    /// What the cuts so far left on disk.
    struct Survivors {
        /// Invocations `delivered` in the surviving files of some cut: never to be delivered again.
        var delivered = Set<String>()
        /// Invocations the app received before the current daemon started.
        var seen = Set<String>()
    }

    struct Totals {
        var acknowledged = 0
        var deliveries = 0
        var lost = 0
        var redeliveredAfterCut = 0
        var violations = 0
        var droppedBytes = 0
    }

    /// Checks the deliveries one daemon made (`received`, in order): none of an invocation whose
    /// `delivered` record survived a cut; an id it delivers twice carries the redelivery flag the
    /// second time. Counts the allowed repeats of ids delivered before the cut.
    func check(_ received: ArraySlice<StandInApp.Received>, survivors: Survivors, start: Int, totals: inout Totals) {
        var now = Set<String>()
        for delivery in received {
            let id = delivery.invocationID
            if survivors.delivered.contains(id) {
                totals.violations += 1
                Issue.record("daemon \(start) delivered \(id) again although its delivered record had reached the disk")
            } else if now.contains(id) && !delivery.isRedelivery {
                totals.violations += 1
                Issue.record("daemon \(start) delivered \(id) twice, the second time without deeplinker.redelivery")
            } else if survivors.seen.contains(id) && !now.contains(id) {
                totals.redeliveredAfterCut += 1
            }
            now.insert(id)
        }
    }

    /// The surviving database and `-wal` (not the `-shm`, which SQLite rebuilds), copied to `copy`
    /// and opened there: its `integrity_check` and every invocation's status.
    static func surviving(backing: String, copy: String) throws -> (integrity: String, statuses: [String: String]) {
        let fm = FileManager.default
        try fm.createDirectory(atPath: copy, withIntermediateDirectories: true)
        let name = SQLiteInvocationStore.fileName
        for suffix in ["", "-wal"] where fm.fileExists(atPath: "\(backing)/\(name)\(suffix)") {
            try fm.copyItem(atPath: "\(backing)/\(name)\(suffix)", toPath: "\(copy)/\(name)\(suffix)")
        }
        let db = try SQLiteDatabase(path: "\(copy)/\(name)")
        defer { db.close() }
        let integrity = try db.prepare("PRAGMA integrity_check").rows { $0.text(0) ?? "" }.joined(separator: "; ")
        var statuses: [String: String] = [:]
        // No table at all when not even the schema's commit reached the disk.
        guard try db.tableExists("invocation") else { return (integrity, statuses) }
        for (id, status) in try db.prepare("SELECT id, status FROM invocation").rows([]) { ($0.text(0) ?? "", $0.text(1) ?? "") } {
            statuses[id] = status
        }
        return (integrity, statuses)
    }
}
