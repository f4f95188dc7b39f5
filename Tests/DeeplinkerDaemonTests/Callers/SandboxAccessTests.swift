import DBusKit
import DeeplinkerCore
import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// SPEC §3 "Callers" end to end: a Flatpak-like sandbox (bwrap + xdg-dbus-proxy with a
/// `/.flatpak-info`) calls the real daemon over a real bus; the daemon tells it from the host by
/// the proxy's process.
@Suite("Callers: a sandboxed app sees and controls only its own app")
struct SandboxAccessTests {
    static let recipes = TestRouteFiles.recipes
    static let own = TestRouteFiles.apartments

    static func withSandbox(clock: TestClock? = nil, _ body: (DaemonFixture, DBusConnection) async throws -> Void) async throws {
        try await DaemonFixture.withDaemon(shipped: [recipes, own], clock: clock) { f in
            try await SandboxFixture.withSandbox(appID: own, bus: f.bus) { sandbox in
                try await body(f, try sandbox.connect())
            }
        }
    }

    static func error(_ f: DaemonFixture, _ member: String, _ arguments: [DBusValue], from connection: DBusConnection) async -> DBusError? {
        do {
            _ = try await f.call(member, arguments, from: connection)
            return nil
        } catch {
            return error as? DBusError
        }
    }

    @Test("links for any app go through; every app-scoped method for another app is refused naming both ids; its own app's are allowed")
    func ownAppOnly() async throws {
        try await Self.withSandbox { f, app in
            let opened = try await f.openURL(Self.recipes, "bestrecipes://recipe/12", from: app)
            #expect(opened.target == "recipe")
            for call in MethodTableTests.everyMethod(Self.recipes) where AccessTableTests.ownAppOnly.contains(call.method) {
                let refused = await Self.error(f, call.method, call.arguments, from: app)
                #expect(refused?.name == "org.deeplinker.Error.AccessDenied", "\(call.method)")
                #expect(refused?.message.contains(Self.own) == true && refused?.message.contains(Self.recipes) == true, "\(refused as Any)")
            }
            for call in MethodTableTests.everyMethod(Self.own) where AccessTableTests.ownAppOnly.contains(call.method) {
                let answer = await Self.error(f, call.method, call.arguments, from: app)
                #expect(answer?.name != "org.deeplinker.Error.AccessDenied" || answer?.message.contains("sandboxed") == false, "\(call.method): \(answer as Any)")
            }
            // The same calls from the host's own client are not refused for access.
            #expect(try await f.call("GetAppState", [.string(Self.recipes)]) == [.string("not-running")])
        }
    }

    @Test("ListApps and GetHistory(\"\") show only its own app; Reload, SetFocusedApp and SetDomainVerification are refused")
    func filteredAndHostOnly() async throws {
        try await Self.withSandbox { f, app in
            _ = try await f.openURL(Self.recipes, "bestrecipes://home")
            _ = try await f.openURL(Self.own, "deeplinkTutorial://request/r-1")
            #expect(try await f.call("ListApps", from: app) == [.strings([Self.own])])
            let rows = try await f.call("GetHistory", [.string(""), .uint32(0)], from: app).first?.arrayElements ?? []
            #expect(rows.count == 1 && rows.first?.structureFields?[1] == .string(Self.own))
            #expect(try await f.history().count == 2)
            let reload = await Self.error(f, "Reload", [], from: app)
            #expect(reload?.name == "org.deeplinker.Error.AccessDenied" && reload?.message.contains("Reload") == true)
            // A sandboxed app may not claim the focus, not even for itself.
            for focused in [Self.own, ""] {
                let focus = await Self.error(f, "SetFocusedApp", [.string(focused)], from: app)
                #expect(focus?.name == "org.deeplinker.Error.AccessDenied" && focus?.message.contains("SetFocusedApp") == true, "\(focus as Any)")
            }
            #expect(try await f.call("SetFocusedApp", [.string(Self.own)]) == [])
            // Nor record a verdict for a domain, not even its own app's; reading the claims is fine.
            let verdict: [DBusValue] = [.string(Self.recipes), .string("bestrecipes.com"), .string("verified"), .string("")]
            let verify = await Self.error(f, "SetDomainVerification", verdict, from: app)
            #expect(verify?.name == "org.deeplinker.Error.AccessDenied" && verify?.message.contains("SetDomainVerification") == true, "\(verify as Any)")
            #expect(try await f.call("SetDomainVerification", verdict) == [])
            let claims = try await f.call("GetLinkClaims", from: app).first?.arrayElements ?? []
            #expect(claims.first?.structureFields?[2] == .string("verified"))
        }
    }

    @Test("GetInvocation: its own app's invocations with their detail, another app's refused naming both ids")
    func getInvocation() async throws {
        try await Self.withSandbox { f, app in
            let theirs = try await f.openURL(Self.recipes, "bestrecipes://home")
            let mine = try await f.openURL(Self.own, "deeplinkTutorial://request/r-1", from: app)
            let fields = try await f.call("GetInvocation", [.string(mine.id)], from: app).first?.variantDictionaryValue
            #expect(fields?["app-id"] == .string(Self.own) && fields?["status"] == .string("pending") && fields?["detail"] == .string(""))
            let refused = await Self.error(f, "GetInvocation", [.string(theirs.id)], from: app)
            #expect(refused?.name == "org.deeplinker.Error.AccessDenied", "\(refused as Any)")
            #expect(refused?.message.contains(Self.own) == true && refused?.message.contains(Self.recipes) == true, "\(refused as Any)")
        }
    }

    @Test("a burst of 300 OpenURLs from the sandbox is limited to 100 in a second, and the limit lifts a second later; a host burst is not limited")
    func rateLimit() async throws {
        // The daemon's rate window reads its clock (DaemonConfiguration.clock), so the test moves time.
        let clock = TestClock()
        try await Self.withSandbox(clock: clock) { f, app in
            func openFromApp(_ n: Int) async -> DBusError? {
                await Self.error(f, "OpenURL", [.string(Self.recipes), .string("bestrecipes://recipe/\(n)")], from: app)
            }
            var limited = 0
            var accepted = 0
            for i in 0..<300 {
                if let error = await openFromApp(i) {
                    #expect(error.name == "org.deeplinker.Error.RateLimited", "\(error)")
                    limited += 1
                } else {
                    accepted += 1
                }
            }
            // All 300 in the same instant: exactly the first 100 get through.
            #expect(accepted == 100 && limited == 200)
            // Within the second of the first 100: still limited; a full second after them: admitted.
            clock.advance(.milliseconds(999))
            #expect(await openFromApp(300)?.name == "org.deeplinker.Error.RateLimited")
            clock.advance(.milliseconds(1))
            #expect(await openFromApp(301) == nil)
            for i in 0..<300 { _ = try await f.openURL(Self.recipes, "bestrecipes://recipe/\(1000 + i)") }
        }
    }

    @Test("a caller whose process is gone before the lookup is treated as an unidentified sandboxed app")
    func goneCallerIsSandboxed() async throws {
        try await DaemonFixture.withDaemon(shipped: [Self.recipes], startDaemon: false) { f in
            let log = CapturedLog()
            // The real reader, run once a caller other than this test process has exited (Linux
            // gives no exit event for a process that is not a child: /proc/PID is watched until it goes).
            _ = try await f.startDaemon(logger: log.logger()) { pid in
                guard pid != UInt32(getpid()) else { return CallerIdentityReader().lookup(pid: pid) }
                let deadline = ContinuousClock.now + .seconds(20)
                while access("/proc/\(pid)", F_OK) == 0 && ContinuousClock.now < deadline { usleep(2_000) }
                return CallerIdentityReader().lookup(pid: pid)
            }
            let script = """
                import dbus
                bus = dbus.bus.BusConnection("\(f.bus.address)")
                bus.call_async("org.deeplinker.Deeplinker1", "/org/deeplinker/Deeplinker1", "org.deeplinker.Deeplinker1",
                               "SetShortcuts", "sas", ["\(Self.recipes)", ["com.bestrecipes.search"]], None, None)
                bus.flush()
                """
            let result = try await TestProcess.run("/usr/bin/python3", ["-c", script])
            #expect(result.status == 0)
            // Logged on the core just before the call runs as the caller it was found to be.
            let line = try await log.recorded.first { $0.contains("is treated as an unidentified sandboxed app") }
            #expect(line.contains("could not be read") || line.contains("is gone"))
            // Refused (a host's SetShortcuts would have left only `search` published).
            let after = try await f.call("PerformShortcut", [.string(Self.recipes), .string("com.bestrecipes.favorites")])
            #expect(after[1] == .string("home"))
        }
    }
}
