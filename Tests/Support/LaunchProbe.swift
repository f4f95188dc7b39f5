import DBusKit
import Foundation

/// Programs the daemon launches in the launch tests, and what they report: a shell script that
/// emits `org.deeplinker.Test1.Launched(s pid, s session, as argv, a{ss} environment)` on the bus
/// it was given, and a python stand-in for `org.freedesktop.systemd1` that records
/// `StartTransientUnit` as `org.deeplinker.Test1.TransientUnit(s name, s mode, au pids)`.
public enum LaunchProbe {
    /// One launched process as it saw itself.
    public struct Launched: Sendable {
        public let pid: String
        public let session: String
        public let argv: [String]
        /// The variables the probe reports (`unset` when absent).
        public let environment: [String: String]

        /// From the signal's arguments; nil when they are not `(s, s, as, a{ss})`.
        public init?(_ a: [DBusValue]) {
            guard a.count == 4, let pid = a[0].stringValue, let session = a[1].stringValue, let argv = a[2].stringArray,
                  let environment = a[3].stringDictionaryValue else { return nil }
            self.pid = pid
            self.session = session
            self.argv = argv
            self.environment = environment
        }
    }

    /// One `StartTransientUnit` call.
    public struct TransientUnit: Sendable {
        public let name: String
        public let mode: String
        public let pids: [UInt32]

        /// From the signal's arguments; nil when they are not `(s, s, au)`.
        public init?(_ a: [DBusValue]) {
            guard a.count == 3, let name = a[0].stringValue, let mode = a[1].stringValue else { return nil }
            self.name = name
            self.mode = mode
            self.pids = a[2].arrayElements?.compactMap(\.uint32Value) ?? []
        }
    }

    /// The match rule of the probe's `Launched` signal.
    public static let launchedRule = MatchRule(interface: "org.deeplinker.Test1", member: "Launched")
    /// The match rule of the systemd stand-in's `TransientUnit` signal.
    public static let transientUnitRule = MatchRule(interface: "org.deeplinker.Test1", member: "TransientUnit")

    /// The variables the probe reports.
    public static let reported = [
        "XDG_ACTIVATION_TOKEN", "DESKTOP_STARTUP_ID", "NOTIFY_SOCKET", "WATCHDOG_USEC", "LISTEN_FDS", "JOURNAL_STREAM",
        "DBUS_SESSION_BUS_ADDRESS",
    ]

    public static var script: String {
        let names = "[" + reported.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        return """
            #!/bin/sh
            # Reports how it was started, then exits.
            session=$(cut -d' ' -f6 /proc/$$/stat)
            exec /usr/bin/python3 - "$$" "$session" "$@" <<'PY'
            import os, sys, dbus
            bus = dbus.bus.BusConnection(os.environ["DBUS_SESSION_BUS_ADDRESS"])
            names = \(names)
            env = dbus.Dictionary({n: os.environ.get(n, "unset") for n in names}, signature="ss")
            msg = dbus.lowlevel.SignalMessage("/org/deeplinker/Test1", "org.deeplinker.Test1", "Launched")
            msg.append(sys.argv[1], sys.argv[2], dbus.Array(sys.argv[3:], signature="s"), env, signature="ssasa{ss}")
            bus.send_message(msg)
            bus.flush()
            PY
            """
    }

    public static let systemdScript = #"""
        import sys
        import dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib

        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(sys.argv[1])
        bus.set_exit_on_disconnect(True)

        class Manager(dbus.service.Object):
            @dbus.service.method("org.freedesktop.systemd1.Manager", in_signature="ssa(sv)a(sa(sv))", out_signature="o")
            def StartTransientUnit(self, name, mode, properties, aux):
                pids = []
                for key, value in properties:
                    if key == "PIDs":
                        pids = [int(p) for p in value]
                self.TransientUnit(name, mode, dbus.Array(pids, signature="u"))
                return dbus.ObjectPath("/org/freedesktop/systemd1/job/1")

            @dbus.service.signal("org.deeplinker.Test1", signature="ssau")
            def TransientUnit(self, name, mode, pids):
                pass

        manager = Manager(bus, "/org/freedesktop/systemd1")
        name = dbus.service.BusName("org.freedesktop.systemd1", bus, do_not_queue=True)
        print("ready", flush=True)
        GLib.MainLoop().run()
        """#
}

/// A python `org.freedesktop.systemd1` on the fixture's bus (``LaunchProbe/systemdScript``)
/// recording `StartTransientUnit`.
public final class SystemdStandIn: Sendable {
    public let units = Recorder<LaunchProbe.TransientUnit>()
    private let process: TestProcess

    /// Starts it; returns once it owns `org.freedesktop.systemd1`.
    public init(_ f: DaemonFixture) async throws {
        let units = self.units
        try await f.client.subscribe(LaunchProbe.transientUnitRule) { _, a in
            if let unit = LaunchProbe.TransientUnit(a) { units.put(unit) }
        }
        let script = f.root + "/systemd.py"
        try LaunchProbe.systemdScript.write(toFile: script, atomically: true, encoding: .utf8)
        process = try TestProcess(
            executable: "/usr/bin/python3", arguments: [script, f.bus.address], environment: ProcessInfo.processInfo.environment)
        try await f.client.waitForOwner("org.freedesktop.systemd1")
    }

    public func stop() {
        process.stop()
    }
}
