import DBusKit
import DeeplinkerTestSupport
import Foundation
import Testing

@Suite struct ConnectionTests {
    static func echoObject() -> DBusObject {
        DBusObject(path: "/org/example/Obj", interfaces: [
            DBusInterface(
                "org.example.Iface",
                methods: [
                    DBusMethod("Fail", in: [DBusArgument("what", "s")]) { call in
                        call.fail(DBusError(name: "org.example.Error.Bad", message: "bad value '\(call.arguments[0].stringValue ?? "")'"))
                    },
                    DBusMethod("Later", in: [DBusArgument("value", "s")], out: [DBusArgument("value", "s")]) { call in
                        Task {
                            await Task.yield()
                            call.reply(call.arguments)
                        }
                    },
                    DBusMethod("Never", out: [DBusArgument("value", "s")]) { _ in },
                ],
                signals: [DBusSignal("Changed", [DBusArgument("what", "s")])],
                properties: [DBusProperty("Version", "s") { .string("1.2.3") }])
        ])
    }

    @Test("a detached connection's calls go to its answer closure, and fail with ServiceUnknown without one")
    func detachedAnswers() async throws {
        let answered = DBusConnection.detached(answer: { call in
            call.member == "Echo" ? .success([.string("\(call.destination ?? "")")]) : .failure(DBusError(name: "org.example.Error.No", message: "no"))
        })
        defer { answered.close() }
        let values = try await answered.call(destination: "org.example.Peer", path: "/org/example/Obj", interface: "org.example.Iface", member: "Echo")
        #expect(values == [.string("org.example.Peer")])
        await #expect(throws: DBusError(name: "org.example.Error.No", message: "no")) {
            try await answered.call(destination: "org.example.Peer", path: "/org/example/Obj", interface: "org.example.Iface", member: "Other")
        }
        let silent = DBusConnection.detached()
        defer { silent.close() }
        do {
            _ = try await silent.call(destination: "org.example.Peer", path: "/org/example/Obj", interface: "org.example.Iface", member: "Echo")
            Issue.record("a detached connection without an answer replied")
        } catch {
            #expect(error.name == DBusError.serviceUnknownName)
        }
    }

    @Test("error replies carry the handler's name and message")
    func errorReply() async throws {
        let fixture = try BusFixture()
        let server = try await fixture.serve(Self.echoObject(), name: "org.example.Server")
        defer { server.close() }
        let client = try fixture.connect()
        defer { client.close() }
        let error = await #expect(throws: DBusError.self) {
            _ = try await client.call(destination: "org.example.Server", path: "/org/example/Obj", interface: "org.example.Iface", member: "Fail", arguments: [.string("x1")])
        }
        #expect(error?.name == "org.example.Error.Bad")
        #expect(error?.message == "bad value 'x1'")
    }

    @Test("a method may reply later, from another task")
    func asynchronousReply() async throws {
        let fixture = try BusFixture()
        let server = try await fixture.serve(Self.echoObject(), name: "org.example.Server")
        defer { server.close() }
        let client = try fixture.connect()
        defer { client.close() }
        let reply = try await client.call(destination: "org.example.Server", path: "/org/example/Obj", interface: "org.example.Iface", member: "Later", arguments: [.string("v")])
        #expect(reply == [.string("v")])
    }

    @Test("wrong argument types and unknown methods get standard errors")
    func badCalls() async throws {
        let fixture = try BusFixture()
        let server = try await fixture.serve(Self.echoObject(), name: "org.example.Server")
        defer { server.close() }
        let client = try fixture.connect()
        defer { client.close() }
        let wrong = await #expect(throws: DBusError.self) {
            _ = try await client.call(destination: "org.example.Server", path: "/org/example/Obj", interface: "org.example.Iface", member: "Later", arguments: [.int32(1)])
        }
        #expect(wrong?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(wrong?.message.contains("'s', not 'i'") == true)
        let unknown = await #expect(throws: DBusError.self) {
            _ = try await client.call(destination: "org.example.Server", path: "/org/example/Obj", interface: "org.example.Iface", member: "Nope")
        }
        #expect(unknown?.name == DBusError.unknownMethodName)
    }

    @Test("a call times out on its own deadline while the loop keeps serving")
    func callTimeout() async throws {
        let fixture = try BusFixture()
        let server = try await fixture.serve(Self.echoObject(), name: "org.example.Server")
        defer { server.close() }
        let client = try fixture.connect()
        defer { client.close() }
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: DBusError.self) {
            _ = try await client.call(destination: "org.example.Server", path: "/org/example/Obj", interface: "org.example.Iface", member: "Never", timeout: .milliseconds(200))
        }
        #expect(error?.name == DBusError.noReplyName)
        #expect(clock.now - start < .seconds(5))
        try await client.ping("org.example.Server")
    }

    @Test("a peer vanishing mid-call fails the call instead of hanging")
    func peerVanishes() async throws {
        let fixture = try BusFixture()
        let script = """
            import dbus, dbus.service, sys
            from dbus.mainloop.glib import DBusGMainLoop
            from gi.repository import GLib
            DBusGMainLoop(set_as_default=True)
            bus = dbus.bus.BusConnection(sys.argv[1])
            name = dbus.service.BusName('org.example.Vanish', bus)
            class O(dbus.service.Object):
                @dbus.service.method('org.example.Vanish', in_signature='', out_signature='s')
                def Die(self):
                    sys.stdout.flush(); import os; os._exit(3)
            O(bus, '/o')
            print('ready', flush=True)
            GLib.MainLoop().run()
            """
        let peer = try TestProcess(
            executable: "/usr/bin/python3", arguments: ["-c", script, fixture.bus.address], environment: ProcessInfo.processInfo.environment)
        defer { peer.stop() }
        try await peer.waitForLine(containing: "ready")
        let client = try fixture.connect()
        defer { client.close() }
        let error = await #expect(throws: DBusError.self) {
            _ = try await client.call(destination: "org.example.Vanish", path: "/o", interface: "org.example.Vanish", member: "Die")
        }
        #expect(error?.name == DBusError.noReplyName)
        try await client.ping("org.freedesktop.DBus", path: "/org/freedesktop/DBus")
    }

    @Test("properties: Get and GetAll serve values, Set is refused with a named error")
    func properties() async throws {
        let fixture = try BusFixture()
        let server = try await fixture.serve(Self.echoObject(), name: "org.example.Server")
        defer { server.close() }
        let client = try fixture.connect()
        defer { client.close() }
        let get = try await client.call(destination: "org.example.Server", path: "/org/example/Obj", interface: "org.freedesktop.DBus.Properties", member: "Get", arguments: [.string("org.example.Iface"), .string("Version")])
        #expect(get == [.variant(.string("1.2.3"))])
        let all = try await client.call(destination: "org.example.Server", path: "/org/example/Obj", interface: "org.freedesktop.DBus.Properties", member: "GetAll", arguments: [.string("org.example.Iface")])
        #expect(all.first?.variantDictionaryValue == ["Version": .string("1.2.3")])
        let set = await #expect(throws: DBusError.self) {
            _ = try await client.call(destination: "org.example.Server", path: "/org/example/Obj", interface: "org.freedesktop.DBus.Properties", member: "Set", arguments: [.string("org.example.Iface"), .string("Version"), .variant(.string("9"))])
        }
        #expect(set?.name == "org.freedesktop.DBus.Error.PropertyReadOnly")
        #expect(set?.message.contains("Version") == true)
        let missing = await #expect(throws: DBusError.self) {
            _ = try await client.call(destination: "org.example.Server", path: "/org/example/Obj", interface: "org.freedesktop.DBus.Properties", member: "Get", arguments: [.string("org.example.Iface"), .string("Nope")])
        }
        #expect(missing?.name == "org.freedesktop.DBus.Error.UnknownProperty")
    }

    @Test("Introspect lists the object's interfaces, the standard ones, and child nodes")
    func introspection() async throws {
        let fixture = try BusFixture()
        let server = try await fixture.serve(Self.echoObject(), name: "org.example.Server")
        defer { server.close() }
        let client = try fixture.connect()
        defer { client.close() }
        let xml = try await client.call(destination: "org.example.Server", path: "/org/example/Obj", interface: "org.freedesktop.DBus.Introspectable", member: "Introspect").first?.stringValue ?? ""
        #expect(xml == DBusIntrospection.xml(interfaces: Self.echoObject().interfaces))
        #expect(xml.contains("<method name=\"Later\">"))
        #expect(xml.contains("<signal name=\"Changed\">"))
        #expect(xml.contains("<property name=\"Version\" type=\"s\" access=\"read\"/>"))
        #expect(xml.contains("org.freedesktop.DBus.Peer"))
        let root = try await client.call(destination: "org.example.Server", path: "/org", interface: "org.freedesktop.DBus.Introspectable", member: "Introspect").first?.stringValue ?? ""
        #expect(root.contains("<node name=\"example\"/>"))
        // libdbus itself answers Peer.Ping for any path.
        try await client.ping("org.example.Server", path: "/org/example/Obj")
    }

    @Test("a second owner of a well-known name is refused")
    func secondOwnerRefused() async throws {
        let fixture = try BusFixture()
        let first = try fixture.connect()
        defer { first.close() }
        let second = try fixture.connect()
        defer { second.close() }
        #expect(try await first.requestName("org.example.Single") == .primaryOwner)
        #expect(try await second.requestName("org.example.Single") == .exists)
        #expect(try await second.nameOwner("org.example.Single") == first.uniqueName)
        #expect(try await second.nameOwner("org.example.Nobody") == nil)
    }

    @Test("many calls from many tasks at once all complete")
    func concurrentCalls() async throws {
        let fixture = try BusFixture()
        let server = try await fixture.serve(Self.echoObject(), name: "org.example.Server")
        defer { server.close() }
        let client = try fixture.connect()
        defer { client.close() }
        let results = try await withThrowingTaskGroup(of: String.self) { group in
            for i in 0..<500 {
                group.addTask {
                    try await client.call(destination: "org.example.Server", path: "/org/example/Obj", interface: "org.example.Iface", member: "Later", arguments: [.string("\(i)")]).first?.stringValue ?? ""
                }
            }
            var all: [String] = []
            for try await r in group { all.append(r) }
            return all
        }
        #expect(Set(results) == Set((0..<500).map { "\($0)" }))
    }

    @Test("a handler may call out before replying, and plain threads may call too, without deadlock")
    func nestedAndThreadCalls() async throws {
        let fixture = try BusFixture()
        let backend = try await fixture.serve(Self.echoObject(), name: "org.example.Backend")
        defer { backend.close() }
        let relay = try fixture.connect()
        defer { relay.close() }
        try relay.export(DBusObject(path: "/relay", interfaces: [
            DBusInterface("org.example.Relay", methods: [
                DBusMethod("Relay", in: [DBusArgument("value", "s")], out: [DBusArgument("value", "s")]) { call in
                    // Runs on the relay's loop thread; the outgoing call must not block it.
                    relay.startCall(
                        try! DBusMessage.methodCall(destination: "org.example.Backend", path: "/org/example/Obj", interface: "org.example.Iface", member: "Later", arguments: call.arguments),
                        timeout: .seconds(10)
                    ) { result in
                        switch result {
                        case .success(let reply): call.reply((try? reply.arguments()) ?? [])
                        case .failure(let error): call.fail(error)
                        }
                    }
                }
            ])
        ]))
        #expect(try await relay.requestName("org.example.Relay") == .primaryOwner)
        let client = try fixture.connect()
        defer { client.close() }
        let reply = try await client.call(destination: "org.example.Relay", path: "/relay", interface: "org.example.Relay", member: "Relay", arguments: [.string("through")])
        #expect(reply == [.string("through")])

        let fromThread = Recorder<String>()
        let thread = Thread {
            client.startCall(
                try! DBusMessage.methodCall(destination: "org.example.Backend", path: "/org/example/Obj", interface: "org.example.Iface", member: "Later", arguments: [.string("thread")]),
                timeout: nil
            ) { result in fromThread.put((try? result.get().arguments().first?.stringValue) ?? "failed") }
        }
        thread.start()
        #expect(try await fromThread.next() == "thread")
    }

    @Test("calls after close fail with Disconnected")
    func callAfterClose() async throws {
        let fixture = try BusFixture()
        let client = try fixture.connect()
        client.close()
        let error = await #expect(throws: DBusError.self) { try await client.ping("org.freedesktop.DBus", path: "/org/freedesktop/DBus") }
        #expect(error?.name == "org.freedesktop.DBus.Error.Disconnected")
    }

    @Test("bus driver calls: activatable names and service start")
    func busDriver() async throws {
        let directory = try TemporaryDirectory(prefix: "svc")
        let services = URL(fileURLWithPath: directory.path)
        let script = services.appendingPathComponent("svc.py")
        try """
            import dbus, dbus.service, os
            from dbus.mainloop.glib import DBusGMainLoop
            from gi.repository import GLib
            DBusGMainLoop(set_as_default=True)
            bus = dbus.bus.BusConnection(os.environ['DBUS_STARTER_ADDRESS'])
            bus.set_exit_on_disconnect(True)
            name = dbus.service.BusName('org.example.Activated', bus)
            GLib.MainLoop().run()
            """.write(to: script, atomically: true, encoding: .utf8)
        try """
            [D-BUS Service]
            Name=org.example.Activated
            Exec=/usr/bin/python3 \(script.path)
            """.write(to: services.appendingPathComponent("org.example.Activated.service"), atomically: true, encoding: .utf8)
        let bus = try PrivateBus(serviceDirectories: [services.path])
        defer { bus.stop() }
        let client = try DBusConnection(address: bus.address)
        defer { client.close() }
        #expect(try await client.listActivatableNames().contains("org.example.Activated"))
        #expect(try await client.nameOwner("org.example.Activated") == nil)
        #expect(try await client.startServiceByName("org.example.Activated"))
        #expect(try await client.nameOwner("org.example.Activated") != nil)
        // The bus runs its services with no signal blocked (a blocked SIGTERM would make them unstoppable).
        let pid = try await client.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetConnectionUnixProcessID", arguments: [.string("org.example.Activated")]).first?.uint32Value
        let status = try TestFiles.read("/proc/\(try #require(pid))/status")
        #expect(status.split(separator: "\n").contains("SigBlk:\t0000000000000000"), "\(status)")
        #expect(try await client.startServiceByName("org.example.Activated") == false)
        let missing = await #expect(throws: DBusError.self) { _ = try await client.startServiceByName("org.example.Missing") }
        #expect(missing?.name == DBusError.serviceUnknownName)
    }

    /// A message sent from another thread just before `close()` goes out (a daemon whose sync
    /// failed answers its waiters StorageFailed from the sync thread, then closes): the loop is
    /// held until `close()` has marked the connection closed, so the send's job runs after that.
    @Test func closeSendsWhatWasSentBeforeIt() async throws {
        let fixture = try BusFixture()
        let listener = try fixture.connect()
        defer { listener.close() }
        let got = Recorder<String>()
        try await listener.subscribe(MatchRule(interface: "org.example.Last", member: "Word")) { _, args in
            got.put(args.first?.stringValue ?? "")
        }
        let emitter = try fixture.connect()
        let loopHeld = HeldGate()
        loopHeld.close()
        emitter.executor.execute { loopHeld.pass(1) }
        _ = try await loopHeld.held.next()
        try emitter.emitSignal(path: "/", interface: "org.example.Last", member: "Word", arguments: [.string("sent before close")])
        let closed = Recorder<Bool>()
        Thread { emitter.close(); closed.put(true) }.start()
        while !emitter.isClosed { await Task.yield() }
        loopHeld.open()
        #expect(try await closed.next())
        #expect(try await got.next() == "sent before close")
    }

    /// Handlers that hold their connection (through an owner, as a daemon's do) are let go by
    /// `close()`, so the connection and its owner are freed, not kept alive by each other.
    @Test func closeLetsGoOfHandlersThatHoldTheConnection() async throws {
        let fixture = try BusFixture()
        weak var released: DBusConnection?
        do {
            let connection = try fixture.connect()
            released = connection
            let owner = ConnectionOwner(connection)
            try connection.export(DBusObject(path: "/org/example/Owned", interfaces: [
                DBusInterface("org.example.Owned", methods: [DBusMethod("Ping") { call in call.reply([.string(owner.name)]) }])
            ]))
            try await connection.subscribe(MatchRule(interface: "org.example.Owned", member: "Changed")) { _, _ in _ = owner.name }
            connection.onDisconnect { _ = owner.name }
            connection.close()
        }
        #expect(released == nil)
    }
}
