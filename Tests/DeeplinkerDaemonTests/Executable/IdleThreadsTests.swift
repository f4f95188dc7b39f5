import DBusKit
import DeeplinkerDaemon
import Foundation
import Testing
import DeeplinkerTestSupport

/// No periodic wake-ups when idle: libdispatch starts a 1 Hz monitor of its worker pool
/// the first time one of its workers starts, and never stops it. So the real `deeplinkerd`, after
/// doing everything that once started a worker (tasks, sleeps, a route file changing, signals),
/// must have no libdispatch thread and no armed timer: only the threads it names itself.
@Suite("deeplinkerd idle threads")
struct IdleThreadsTests {
    /// Every thread of `pid` by name (`/proc/PID/task/TID/comm`).
    static func threadNames(_ pid: Int32) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").map {
            try String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8).trimmingCharacters(in: .newlines)
        }
    }

    /// The `it_value` line of every timerfd `pid` holds (`/proc/PID/fdinfo`).
    static func timerValues(_ pid: Int32) throws -> [String] {
        let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
        return try fds.compactMap { fd -> String? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
                target.contains("timerfd") else { return nil }
            let info = try String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8)
            return info.split(separator: "\n").first { $0.hasPrefix("it_value") }.map(String.init) ?? info
        }
    }

    @Test("after invocations, an expiry, three reloads and SIGHUP, only its own threads run and no timer is armed")
    func onlyItsOwnThreads() async throws {
        let quiet = """
            schemes = ["quiet"]
            pending-ttl = "1s"
            [targets]
            note = {}
            [[routes]]
            path = "/note"
            target = "note"
            """
        try await DaemonFixture.withDaemon(routeFiles: ["org.example.Quiet": quiet], shipped: ["com.bestrecipes.App"], startDaemon: false) { f in
            let notify = try NotifySocket(directory: f.root)
            let daemon = try await f.spawnDaemonProcess(environment: ["NOTIFY_SOCKET": notify.path])
            let pid = daemon.child.processIdentifier
            var pings = 0
            func reloaded() {
                while let message = notify.nextState(pings: &pings), !message.hasPrefix("RELOADING=1") {}
                while let message = notify.nextState(pings: &pings), message != "READY=1" {}
            }
            // A route that waits (its TTL is 10 minutes: a sleep on the timer thread), and one that
            // expires after a second (a sleep that ends and runs the sweep).
            try await f.call("OpenURL", [.string("com.bestrecipes.App"), .string("bestrecipes://recipe/12")])
            let expiring = try await f.call("OpenURL", [.string("org.example.Quiet"), .string("quiet://note")])
            let id = expiring.first?.stringValue ?? ""
            _ = try await f.changes.next(where: { $0.invocationID == id && $0.status == "expired" })
            // Reload over D-Bus, after a route file changes (inotify) and on SIGHUP.
            try await f.call("Reload")
            reloaded()
            try TestFiles.write(quiet + "\n", to: f.configDir + "/org.example.Quiet.toml")
            reloaded()
            daemon.signal(SIGHUP)
            reloaded()
            try await f.call("OpenURL", [.string("com.bestrecipes.App"), .string("bestrecipes://recipe/13")])

            let names = try Self.threadNames(pid)
            // libdispatch names its workers after their root queue ("com.apple.root.default-qos"),
            // and a thread nobody names keeps the process's name, as the main thread does.
            // ThreadSanitizer's runtime (scripts/test --sanitize thread) adds a thread of its own.
            let unnamed = ProcessInfo.processInfo.environment["TSAN_OPTIONS"] == nil ? 1 : 2
            #expect(names.filter { $0 == "deeplinkerd" }.count == unnamed, "threads: \(names)")
            let own: Set<String> = ["deeplinkerd", "jobs", "timers", "signals", "route-watch", "store-reads", "store-sync", "reaper"]
            let foreign = names.filter { !own.contains($0) && !$0.hasPrefix("dbus:") }
            #expect(foreign.isEmpty, "threads not started by deeplinkerd: \(foreign) of \(names)")
            let armed = try Self.timerValues(pid).filter { !$0.contains("(0, 0)") }
            #expect(armed.isEmpty, "armed timers: \(armed)")
        }
    }
}
