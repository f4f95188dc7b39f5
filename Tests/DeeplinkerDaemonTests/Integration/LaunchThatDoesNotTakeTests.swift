import DBusKit
import DeeplinkerClient
import DeeplinkerTestSupport
import Foundation
import Testing

/// A launch that does not take is said, never waited on silently (SPEC §6): its process ending
/// unsuccessfully, the bus failing to start it, or the app not running once the grace has passed
/// each leave the warning in the log and the reason in the waiting route's `detail`, and the next
/// invocation launches the app again, once.
@Suite(.serialized) struct LaunchThatDoesNotTakeTests {
    static let app = "com.test.Starter"
    static let prefix = "waiting on an app that did not start: "

    /// A route file for `app` that launches with `launch` (a TOML value).
    static func routes(launch: String) -> String {
        TestRouteFiles.minimal(scheme: "starter", ["launch": launch, "dedupe-window": "\"0\""])
    }

    /// Opens `starter://page/ID` and returns the invocation id.
    static func open(_ f: DaemonFixture, _ id: String) async throws -> String {
        let reply = try await f.call("OpenURL", [.string(app), .string("starter://page/\(id)")])
        return try #require(reply.first?.stringValue)
    }

    /// The change that gives `id` a launch failure as its detail.
    static func failure(_ f: DaemonFixture, _ id: String) async throws -> InvocationChange {
        try await f.changes.first { $0.invocationID == id && $0.detail.hasPrefix(prefix) }
    }

    @Test func aLaunchCommandThatFailsIsSaidInTheLogTheDetailAndStatus() async throws {
        try await DaemonFixture.withDaemon(startDaemon: false) { f in
            let starts = f.root + "/starts"
            try TestFiles.write(Self.routes(launch: "[\"/bin/sh\", \"-c\", \"echo started >> \(starts); exit 3\"]"), to: "\(f.configDir)/\(Self.app).toml")
            let daemon = try await f.spawnDaemonProcess()
            let id = try await Self.open(f, "1")
            let change = try await Self.failure(f, id)
            #expect(change.status == "pending", "it still waits")
            #expect(change.detail.contains("its launch command (/bin/sh)"), "\(change.detail)")
            #expect(change.detail.contains("exited with status 3"), "\(change.detail)")
            let warning = try await daemon.waitForErrorLine(containing: "\(Self.app) did not start")
            #expect(warning.contains("warning") && warning.contains("exited with status 3"), "\(warning)")

            let proxy = try f.proxy()
            defer { proxy.connection.close() }
            #expect(try await proxy.invocation(id: id).detail == change.detail)
            let status = try await f.run(["status"])
            #expect(status.stdout.contains("\(Self.app): page"), "\(status.stdout)")
            #expect(status.stdout.contains(change.detail), "\(status.stdout)")
            let json = try DaemonFixture.json(try await f.run(["status", "--json"]).stdout)
            let pending = try #require((json["pending"] as? [String: Any])?[Self.app] as? [String: Any])
            #expect(pending["detail"] as? String == change.detail)
            let doctor = try await f.run(["doctor", Self.app])
            #expect(doctor.status != 0)
            #expect(doctor.stdout.contains("route page is waiting on an app that did not start: it was started by its launch command"), "\(doctor.stdout)")

            // The next invocation launches again, once: a second start, a second failure.
            let next = try await Self.open(f, "2")
            _ = try await Self.failure(f, next)
            #expect(try String(contentsOfFile: starts, encoding: .utf8) == "started\nstarted\n")
        }
    }

    @Test func anAppThatIsNotRunningOnceTheGraceHasPassedIsSaid() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.app: Self.routes(launch: "[\"/bin/true\"]")], startDaemon: false) { f in
            try await f.startDaemon(launchGrace: .milliseconds(300))
            let id = try await Self.open(f, "1")
            let change = try await Self.failure(f, id)
            #expect(change.detail.contains("is not running 0.3 seconds later"), "\(change.detail)")
            #expect(change.detail.contains("its process exited with status 0"), "\(change.detail)")
        }
    }

    @Test func aStartTheBusRefusesIsSaid() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.app: Self.routes(launch: "\"auto\"")], startDaemon: false) { f in
            // Activatable, but its program fails at once: the bus answers Activate with the error.
            try TestFiles.write("[D-BUS Service]\nName=\(Self.app)\nExec=/bin/false\n", to: "\(f.serviceDir)/\(Self.app).service")
            _ = try await f.client.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "ReloadConfig")
            try await f.startDaemon()
            let id = try await Self.open(f, "1")
            let change = try await Self.failure(f, id)
            #expect(change.detail.contains("by D-Bus activation of \(Self.app) (Activate)"), "\(change.detail)")
            #expect(change.detail.contains("org.freedesktop.DBus.Error.Spawn"), "\(change.detail)")
        }
    }
}
