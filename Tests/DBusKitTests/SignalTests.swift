import Foundation
import DBusKit
import DeeplinkerTestSupport
import Testing

@Suite struct SignalTests {
    @Test("broadcast signals reach subscribers whose rule matches, and only those")
    func broadcast() async throws {
        let fixture = try BusFixture()
        let emitter = try fixture.connect()
        defer { emitter.close() }
        let listener = try fixture.connect()
        defer { listener.close() }
        let matching = Recorder<[DBusValue]>()
        let other = Recorder<String>()
        try await listener.subscribe(MatchRule(interface: "org.example.Sig", member: "Changed", path: "/a")) { _, args in matching.put(args) }
        try await listener.subscribe(MatchRule(interface: "org.example.Sig", member: "Other")) { message, _ in other.put(message.member ?? "") }
        try emitter.emitSignal(path: "/b", interface: "org.example.Sig", member: "Changed", arguments: [.string("wrong path")])
        try emitter.emitSignal(path: "/a", interface: "org.example.Sig", member: "Changed", arguments: [.string("one"), .stringDictionary(["k": "v"])])
        try emitter.emitSignal(path: "/a", interface: "org.example.Sig", member: "Other")
        #expect(try await matching.next() == [.string("one"), .stringDictionary(["k": "v"])])
        #expect(try await other.next() == "Other")
    }

    @Test("a unicast signal reaches only its destination")
    func unicast() async throws {
        let fixture = try BusFixture()
        let emitter = try fixture.connect()
        defer { emitter.close() }
        let target = try fixture.connect()
        defer { target.close() }
        let bystander = try fixture.connect()
        defer { bystander.close() }
        let got = Recorder<String>()
        let seen = Recorder<String>()
        let rule = MatchRule(interface: "org.example.Uni", member: "Hello")
        try await target.subscribe(rule) { _, args in got.put(args.first?.stringValue ?? "") }
        try await bystander.subscribe(rule) { _, args in seen.put(args.first?.stringValue ?? "") }
        try emitter.emitSignal(path: "/", interface: "org.example.Uni", member: "Hello", arguments: [.string("private")], destination: target.uniqueName)
        try emitter.emitSignal(path: "/", interface: "org.example.Uni", member: "Hello", arguments: [.string("public")])
        #expect(try await got.next() == "private")
        #expect(try await got.next() == "public")
        // The bystander's first signal is the public one: it never saw the private one.
        #expect(try await seen.next() == "public")
    }

    @Test("NameOwnerChanged reports a peer gaining and losing its name when it exits")
    func nameOwnerChanged() async throws {
        let fixture = try BusFixture()
        let watcher = try fixture.connect()
        defer { watcher.close() }
        let events = Recorder<(String, String, String)>()
        try await watcher.onNameOwnerChanged(name: "org.example.Peer") { name, old, new in events.put((name, old, new)) }
        let peer = try TestProcess(executable: "/usr/bin/python3", arguments: ["-c", """
            import dbus, sys
            bus = dbus.bus.BusConnection(sys.argv[1])
            bus.request_name('org.example.Peer')
            print('ready', flush=True)
            sys.stdin.readline()
            """, fixture.bus.address], environment: ProcessInfo.processInfo.environment)
        let gained = try await events.next()
        #expect(gained.0 == "org.example.Peer" && gained.1 == "" && !gained.2.isEmpty)
        peer.stop()
        let lost = try await events.next()
        #expect(lost.1 == gained.2 && lost.2 == "")
    }

    @Test("unsubscribe stops delivery")
    func unsubscribe() async throws {
        let fixture = try BusFixture()
        let emitter = try fixture.connect()
        defer { emitter.close() }
        let listener = try fixture.connect()
        defer { listener.close() }
        let first = Recorder<String>()
        let second = Recorder<String>()
        let id = try await listener.subscribe(MatchRule(interface: "org.example.U", member: "A")) { _, a in first.put(a.first?.stringValue ?? "") }
        try await listener.subscribe(MatchRule(interface: "org.example.U", member: "B")) { _, a in second.put(a.first?.stringValue ?? "") }
        try emitter.emitSignal(path: "/", interface: "org.example.U", member: "A", arguments: [.string("1")])
        #expect(try await first.next() == "1")
        listener.unsubscribe(id)
        try emitter.emitSignal(path: "/", interface: "org.example.U", member: "A", arguments: [.string("2")])
        try emitter.emitSignal(path: "/", interface: "org.example.U", member: "B", arguments: [.string("marker")])
        // B was sent after A; once B arrived, A would have arrived before it if still subscribed.
        #expect(try await second.next() == "marker")
        let late = Recorder<Bool>()
        Task { late.put(true) }
        _ = try await late.next()
        try emitter.emitSignal(path: "/", interface: "org.example.U", member: "B", arguments: [.string("marker2")])
        #expect(try await second.next() == "marker2")
    }
}
