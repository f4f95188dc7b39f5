import DBusKit
@testable import DeeplinkerDaemon
import DeeplinkerTestSupport
import Foundation
import Testing

/// The Flatpak-like sandbox (bwrap + xdg-dbus-proxy) and what ``CallerIdentityReader`` reads
/// from real processes on a real bus.
@Suite("Callers: a real sandbox")
struct SandboxFixtureTests {
    let sandboxed = "com.example.Sandboxed"

    @Test("a client in the sandbox is the proxy on the bus, read as the sandboxed app")
    func sandboxedClientIsTheProxy() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let host = try DBusConnection(address: bus.address)
        defer { host.close() }
        try await SandboxFixture.withSandbox(appID: sandboxed, bus: bus) { sandbox in
            let client = try sandbox.connect()
            let pid = try await host.processID(of: client.uniqueName)
            #expect(pid == UInt32(sandbox.proxyPID))
            #expect(CallerIdentityReader().lookup(pid: pid) == CallerLookup(.sandboxed(appID: sandboxed)))
            // Read as a daemon in its own user namespace would: the /.flatpak-info mount shows,
            // and with no Flatpak scope here there is no app id.
            let withoutRoot = CallerIdentityReader().lookup(pid: pid, readingRoot: false)
            #expect(withoutRoot.identity == .sandboxed(appID: nil))
            #expect(withoutRoot.reason?.contains("no Flatpak scope") == true)
        }
    }

    @Test("two sandboxes are told apart, and each app owns only its own name")
    func twoSandboxesAreToldApart() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let host = try DBusConnection(address: bus.address)
        defer { host.close() }
        let other = "org.example.Other"
        try await SandboxFixture.withSandbox(appID: sandboxed, bus: bus) { first in
            try await SandboxFixture.withSandbox(appID: other, bus: bus) { second in
                let a = try first.connect(), b = try second.connect()
                let pids = (try await host.processID(of: a.uniqueName), try await host.processID(of: b.uniqueName))
                #expect(pids.0 != pids.1)
                #expect(CallerIdentityReader().lookup(pid: pids.0).identity == .sandboxed(appID: sandboxed))
                #expect(CallerIdentityReader().lookup(pid: pids.1).identity == .sandboxed(appID: other))
                #expect(try await a.requestName(sandboxed) == .primaryOwner)
                #expect(try await host.nameOwner(sandboxed) == a.uniqueName)
                await #expect(throws: DBusError.self) { try await b.requestName(sandboxed) }
            }
        }
    }

    @Test("a host process on the bus reads as host")
    func hostClientIsHost() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let host = try DBusConnection(address: bus.address)
        defer { host.close() }
        let pid = try await host.processID(of: host.uniqueName)
        #expect(pid == UInt32(getpid()))
        #expect(CallerIdentityReader().lookup(pid: pid) == CallerLookup(.host))
        #expect(CallerIdentityReader().lookup(pid: pid, readingRoot: false) == CallerLookup(.host))
    }

    @Test("a proxy with --talk reaches the daemon; one without cannot")
    func talkDecidesWhetherTheDaemonIsVisible() async throws {
        try await DaemonFixture.withDaemon(shipped: [TestRouteFiles.recipes]) { f in
            try await SandboxFixture.withSandbox(appID: sandboxed, bus: f.bus) { sandbox in
                let reply = try await f.call("ResolveURL", [.string(""), .string("bestrecipes://home")], from: try sandbox.connect())
                #expect(reply.first == .string(TestRouteFiles.recipes))
            }
            try await SandboxFixture.withSandbox(appID: sandboxed, bus: f.bus, talk: false) { sandbox in
                do {
                    _ = try await f.call("ResolveURL", [.string(""), .string("bestrecipes://home")], from: try sandbox.connect())
                    Issue.record("the daemon answered through a proxy without --talk")
                } catch let error as DBusError {
                    #expect(error.name == "org.freedesktop.DBus.Error.ServiceUnknown", "\(error)")
                }
            }
        }
    }

    @Test("the sandbox is killed once the body returns, even when it throws")
    func sandboxIsKilledAfterwards() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let host = try DBusConnection(address: bus.address)
        defer { host.close() }
        struct Thrown: Error {}
        let seen = Locked<(name: String, socket: String)?>(nil)
        await #expect(throws: Thrown.self) {
            try await SandboxFixture.withSandbox(appID: sandboxed, bus: bus) { sandbox in
                seen.set((try sandbox.connect().uniqueName, String(sandbox.address.dropFirst("unix:path=".count))))
                throw Thrown()
            }
        }
        let (name, socket) = try #require(seen.value)
        // The bus drops the proxy's connection when the proxy dies.
        try await host.waitUntilUnowned(name)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }
}
