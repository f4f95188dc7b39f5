import DBusKit
import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// SPEC §9: the thread that serves the bus never waits for the disk. The real `deeplinkerd`, traced
/// with `strace` while it takes 4,000 `OpenURL`s delivered to an active app: its bus thread
/// (`dbus:…`) makes no `fsync`/`fdatasync` and writes nothing to the database file (no
/// checkpoint); the sync thread does both, which shows the trace sees them.
@Suite("deeplinkerd: the bus thread never waits for the disk", .serialized,
    .safetySuite(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "needs strace (scripts/setup installs it)"))
struct BusThreadDiskTests {
    let recipes = TestRouteFiles.recipes

    @Test("4,000 delivered invocations: no sync and no write to the database on the bus thread")
    func noDiskOnTheBusThread() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [recipes: try TestRouteFiles.shipped(recipes)], startDaemon: false) { f in
            let daemon = try await f.spawnDaemonProcess()
            let pid = daemon.processIdentifier
            let app = try await f.activeStandIn(recipes)
            defer { app.close() }
            // A thread just started (store-sync, on the first commit) bears its creator's name
            // until it names itself: a bus thread is one still named dbus:… after the run, too.
            let busThreadsAtStart = Self.threads(of: pid).filter { $0.name.hasPrefix("dbus:") }.map(\.id)
            _ = try #require(busThreadsAtStart.first, "the daemon names its bus thread dbus:…")

            let trace = f.root + "/strace.txt"
            let strace = try TestProcess(
                executable: "/usr/bin/strace",
                arguments: ["-f", "-e", "trace=fsync,fdatasync,write,pwrite64,writev,pwritev,pwritev2", "-o", trace, "-p", "\(pid)"],
                environment: ProcessInfo.processInfo.environment)
            _ = try await strace.waitForErrorLine(containing: "Process \(pid) attached")  // "… with N threads"

            // One at a time, each delivered before the next arrives: a route arriving while another
            // waits would supersede it, and every one of the 4,000 is to be delivered.
            let total = 4_000
            for n in 0..<total {
                let reply = try await f.openURL(recipes, "bestrecipes://recipe/\(n)")
                _ = try await app.received.next { $0.invocationID == reply.id }
            }
            let database = f.stateDir + "/" + "deeplinker.sqlite"
            let databaseDescriptors = Self.descriptors(of: pid, openOn: database)
            let threads = Dictionary(Self.threads(of: pid).map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            let busThreads = busThreadsAtStart.filter { threads[$0]?.hasPrefix("dbus:") == true }
            #expect(!busThreads.isEmpty, "the bus thread keeps its name")
            strace.signal(SIGINT)
            _ = try await strace.finish()

            var onBus: [String] = []
            var syncsElsewhere = 0
            var databaseWritesElsewhere = 0
            for line in try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n") {
                guard let call = Self.parse(line) else { continue }
                let isSync = call.name == "fsync" || call.name == "fdatasync"
                let writesDatabase = call.name != "fsync" && call.name != "fdatasync" && databaseDescriptors.contains(call.fd)
                guard isSync || writesDatabase else { continue }
                if busThreads.contains(call.thread) {
                    onBus.append(String(line))
                } else if threads[call.thread] == "store-sync" {
                    if isSync { syncsElsewhere += 1 } else { databaseWritesElsewhere += 1 }
                }
            }
            #expect(onBus.isEmpty, "the bus thread waited for the disk: \(onBus.prefix(5))")
            #expect(syncsElsewhere > 0, "the trace sees the sync thread's fdatasyncs")
            #expect(databaseWritesElsewhere > 0, "and its checkpoints' writes to \(database)")
            _ = daemon
        }
    }

    /// `(tid, name)` of each thread of `pid`.
    static func threads(of pid: Int32) -> [(id: Int32, name: String)] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { task in
            guard let id = Int32(task),
                let name = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)
            else { return nil }
            return (id, name.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// The descriptors `pid` has open on `path`.
    static func descriptors(of pid: Int32, openOn path: String) -> Set<Int32> {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return Set(fds.compactMap { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) == path ? Int32(fd) : nil
        })
    }

    /// `1234 pwrite64(7, "…", 4096, 0) = 4096` → (1234, "pwrite64", 7); resumed halves and signals are skipped.
    static func parse(_ line: Substring) -> (thread: Int32, name: String, fd: Int32)? {
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let thread = Int32(parts[0]) else { return nil }
        let rest = parts[1].drop { $0 == " " }
        guard let open = rest.firstIndex(of: "(") else { return nil }
        let name = String(rest[..<open])
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        let arguments = rest[rest.index(after: open)...]
        let first = arguments.prefix { $0.isNumber }
        return (thread, name, Int32(first) ?? -1)
    }
}
