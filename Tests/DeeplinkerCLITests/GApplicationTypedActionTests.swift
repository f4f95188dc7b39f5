import DBusKit
import Foundation
import Testing
import DeeplinkerTestSupport

/// A real `Gio.Application` whose actions take no parameter or one basic value, as real apps'
/// actions do, gets each route in the action's own type (SPEC §3 Delivery: the daemon reads the
/// types from `org.gtk.Actions.DescribeAll`, once per owner).
@Suite struct GApplicationTypedActionTests {
    static let app = "org.example.Typed"

    /// One action per basic type (and one with none, one a{ss}); each activation prints the
    /// action and its parameter with its type. `describe-all-a{ss}` as the argument gives `say`
    /// the type a{ss} instead of s (another build of the app).
    static let script = #"""
        import sys
        from gi.repository import Gio, GLib

        app = Gio.Application(application_id="org.example.Typed", flags=Gio.ApplicationFlags.FLAGS_NONE)
        types = {"say": "s", "count": "i", "size": "u", "big": "x", "huge": "t", "flag": "b", "ratio": "d", "ping": None, "dict": "a{ss}"}
        if sys.argv[1:] == ["say-takes-a{ss}"]:
            types["say"] = "a{ss}"

        def activated(action, parameter):
            print("%s %s" % (action.get_name(), "none" if parameter is None else parameter.print_(True)), flush=True)

        for name, signature in types.items():
            action = Gio.SimpleAction.new(name, GLib.VariantType.new(signature) if signature else None)
            action.connect("activate", activated)
            app.add_action(action)
        app.connect("activate", lambda application: None)
        app.hold()
        print("running", flush=True)
        sys.exit(app.run([]))
        """#

    static let routeFile = """
        schemes = ["typed"]
        launch = "none"
        ready = "name"
        dedupe-window = "0"

        [targets]
        say = { text = "string" }
        count = { n = "int" }
        size = { n = "int" }
        big = { n = "int" }
        huge = { n = "string" }
        flag = { on = "bool" }
        ratio = { r = "string" }
        ping = { note = "string?" }
        dict = { a = "string?", b = "string?" }
        """

    /// The route file with one route per target: `typed://<target>/<value>` fills its one parameter.
    static var routes: String {
        let parameters = ["say": "text", "count": "n", "size": "n", "big": "n", "huge": "n", "flag": "on", "ratio": "r", "ping": "note", "dict": "a"]
        return parameters.keys.sorted().map { target in
            "[[routes]]\npath = \"/\(target)/:\(parameters[target]!)\"\ntarget = \"\(target)\"\n"
        }.joined(separator: "\n")
    }

    static func start(_ f: DaemonFixture, _ arguments: [String] = []) async throws -> TestProcess {
        let process = try TestProcess(
            executable: "/usr/bin/python3", arguments: ["-c", script] + arguments,
            environment: f.clientEnvironment(["DBUS_SESSION_BUS_ADDRESS": f.bus.address]))
        try await process.waitForLine(containing: "running")
        try await f.client.waitForOwner(app)
        return process
    }

    static func open(_ f: DaemonFixture, _ url: String) async throws -> String {
        let reply = try await f.openURL(app, url)
        return reply.id
    }

    @Test func eachBasicTypeArrivesAsThatType() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.app: Self.routeFile + "\n" + Self.routes]) { f in
            let app = try await Self.start(f)
            defer { app.stop() }
            let cases: [(String, String)] = [
                ("typed://say/h%C3%A9llo%20there", "say 'héllo there'"),
                ("typed://count/-2147483648", "count -2147483648"),
                ("typed://size/4294967295", "size uint32 4294967295"),
                ("typed://big/-9223372036854775808", "big int64 -9223372036854775808"),
                ("typed://huge/18446744073709551615", "huge uint64 18446744073709551615"),
                ("typed://flag/1", "flag true"),
                ("typed://ratio/2.5", "ratio 2.5"),
                ("typed://ping/ignored", "ping none"),
                ("typed://dict/x", "dict {'a': 'x'}"),
            ]
            for (url, expected) in cases {
                let id = try await Self.open(f, url)
                try await f.waitStatus(id, "delivered")
                #expect(try await app.waitForLine(containing: " ") == expected, "\(url)")
            }
        }
    }

    @Test func aValueOutOfTheActionsRangeFailsAtOnceNamingActionAndType() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.app: Self.routeFile + "\n" + Self.routes]) { f in
            let app = try await Self.start(f)
            defer { app.stop() }
            let tooBig = try await Self.open(f, "typed://count/2147483648")
            let change = try await f.waitStatus(tooBig, "failed")
            #expect(change.detail == "action \"count\" takes type i, but parameter \"n\" is not a 32-bit signed integer in range")
            let notANumber = try await Self.open(f, "typed://ratio/lots")
            #expect(try await f.waitStatus(notANumber, "failed").detail.contains("action \"ratio\" takes type d"))
            #expect(f.statuses(tooBig) == ["pending", "delivering", "failed"], "one attempt, no retry")
            // The app is still served: the next good route arrives.
            let good = try await Self.open(f, "typed://count/7")
            try await f.waitStatus(good, "delivered")
            #expect(try await app.waitForLine(containing: " ") == "count 7")
        }
    }

    @Test func theTypesAreReadAgainWhenTheOwnerChanges() async throws {
        try await DaemonFixture.withDaemon(routeFiles: [Self.app: Self.routeFile + "\n" + Self.routes]) { f in
            let first = try await Self.start(f)
            let id = try await Self.open(f, "typed://say/one")
            try await f.waitStatus(id, "delivered")
            #expect(try await first.waitForLine(containing: " ") == "say 'one'")
            first.stop()
            try await f.client.waitUntilUnowned(Self.app)
            let second = try await Self.start(f, ["say-takes-a{ss}"])
            defer { second.stop() }
            let again = try await Self.open(f, "typed://say/two")
            try await f.waitStatus(again, "delivered")
            #expect(try await second.waitForLine(containing: " ") == "say {'text': 'two'}")
        }
    }
}
