import DBusKit
import DeeplinkerTestSupport
import Foundation
import Testing

/// `signal` and `exec` delivery driven by `dbus-send` alone, as a shell script would.
@Suite("Integration: shell-driven delivery")
struct IntegrationShellDeliveryTests {
    static let signalApp = "org.example.SignalApp"
    static let execApp = "org.example.Exec-App"

    func dbusSend(_ f: DaemonFixture, _ arguments: [String]) async throws -> TestProcess.Result {
        try await TestProcess.run("/usr/bin/dbus-send", ["--bus=\(f.bus.address)"] + arguments)
    }

    /// The values of the `string "..."` lines of `dbus-send --print-reply` output, in order.
    static func strings(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("string \""), trimmed.hasSuffix("\"") else { return nil }
            return String(trimmed.dropFirst(8).dropLast())
        }
    }

    func callDaemon(_ f: DaemonFixture, _ method: String, _ arguments: [String]) async throws -> TestProcess.Result {
        try await dbusSend(f, [
            "--print-reply", "--dest=org.deeplinker.Deeplinker1", "/org/deeplinker/Deeplinker1",
            "org.deeplinker.Deeplinker1.\(method)",
        ] + arguments)
    }

    @Test("signal delivery: OpenURL and BecameActive by dbus-send, the Deliver signal carries the route")
    func signalDeliveryByDBusSend() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [
            Self.signalApp: TestRouteFiles.minimal(scheme: "sigapp", ["delivery": "\"signal\"", "lifecycle-senders": "\"any\""])
        ]) { f in
            let open = try await callDaemon(f, "OpenURL", ["string:\(Self.signalApp)", "string:sigapp://page/abc?note=hi"])
            #expect(open.status == 0, "\(open.output)")
            let strings = Self.strings(open.output)
            let id = try #require(strings.first)
            #expect(strings.dropFirst().first == "page")
            #expect(f.delivers.all.isEmpty)
            let active = try await dbusSend(f, ["--type=signal", "/org/example/SignalApp", "org.deeplinker.Lifecycle1.BecameActive"])
            #expect(active.status == 0, "\(active.output)")
            let delivered = try await f.delivers.first { $0.id == id }
            #expect(delivered == DeliverSignal(appID: Self.signalApp, id: id, source: "url", target: "page", parameters: ["id": "abc", "note": "hi"]))
            try await f.waitStatus(id, "delivered")
            let state = try await callDaemon(f, "GetAppState", ["string:\(Self.signalApp)"])
            #expect(Self.strings(state.output) == ["active"])
            // Now active: the next one goes out at once.
            let next = try await callDaemon(f, "OpenURL", ["string:\(Self.signalApp)", "string:sigapp://home"])
            let nextID = try #require(Self.strings(next.output).first)
            _ = try await f.delivers.first { $0.id == nextID && $0.target == "home" }
            #expect(f.delivers.all.count == 2)
        }
    }

    @Test("exec delivery: SetAppState by dbus-send, deliver-command runs with the placeholders, exit 0 acknowledges")
    func execDeliveryByDBusSend() async throws {
        try await DaemonFixture.withDaemon(startDaemon: false) { f in
            let out = f.root + "/delivered.txt"
            let command = [
                "/bin/sh", "-c", "printf '%s\\n' \"$1\" \"$2\" \"$3\" \"$4\" >> \"$0\"", out,
                "{target}", "{invocation-id}", "{source}", "{parameters-json}",
            ]
            try f.writeRouteFile(Self.execApp, TestRouteFiles.minimal(scheme: "execapp", [
                "delivery": "\"exec\"", "lifecycle-senders": "\"any\"", "deliver-command": TestRouteFiles.array(command),
            ]))
            try await f.startDaemon()
            let open = try await callDaemon(f, "OpenURL", ["string:\(Self.execApp)", "string:execapp://page/x%20y?note=a%22b"])
            #expect(open.status == 0, "\(open.output)")
            let id = try #require(Self.strings(open.output).first)
            #expect(!FileManager.default.fileExists(atPath: out))
            let set = try await callDaemon(f, "SetAppState", ["string:\(Self.execApp)", "string:active"])
            #expect(set.status == 0, "\(set.output)")
            try await f.waitStatus(id, "delivered")
            let lines = try TestFiles.read(out).split(separator: "\n").map(String.init)
            #expect(lines.count == 4)
            #expect(lines.first == "page")
            #expect(lines.dropFirst().first == id)
            #expect(lines.dropFirst(2).first == "url")
            let json = try #require(lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] })
            #expect(json == ["id": "x y", "note": "a\"b"])
        }
    }

    @Test("exec delivery: a non-zero exit is a refusal; the route stays pending")
    func execFailureStaysPending() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [
            Self.execApp: TestRouteFiles.minimal(scheme: "execapp", [
                "delivery": "\"exec\"", "lifecycle-senders": "\"any\"", "deliver-command": TestRouteFiles.array(["/bin/false"]),
            ])
        ]) { f in
            let reply = try await f.openURL(Self.execApp, "execapp://home")
            try await f.call("SetAppState", [.string(Self.execApp), .string("active")])
            let refused = try await f.changes.first { $0.invocationID == reply.id && $0.status == "pending" && !$0.detail.isEmpty }
            #expect(refused.detail.contains("status 1"))
            #expect(try await f.pending(Self.execApp)?.id == reply.id)
        }
    }
}
