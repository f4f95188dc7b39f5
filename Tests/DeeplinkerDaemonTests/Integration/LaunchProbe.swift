import DBusKit
import Foundation

/// Programs the daemon launches in the launch tests, and what they report: a shell script that
/// emits `org.deeplinker.Test1.Launched(s pid, s session, as argv, a{ss} environment)` on the bus
/// it was given, and a python stand-in for `org.freedesktop.systemd1` that records
/// `StartTransientUnit` as `org.deeplinker.Test1.TransientUnit(s name, s mode, au pids)`.
enum LaunchProbe {
    /// One launched process as it saw itself.
    struct Launched: Sendable {
        let pid: String
        let session: String
        let argv: [String]
        /// The variables the probe reports (`unset` when absent).
        let environment: [String: String]
    }

    /// One `StartTransientUnit` call.
    struct TransientUnit: Sendable {
        let name: String
        let mode: String
        let pids: [UInt32]
    }

    /// The variables the probe reports.
    static let reported = [
        "XDG_ACTIVATION_TOKEN", "DESKTOP_STARTUP_ID", "NOTIFY_SOCKET", "WATCHDOG_USEC", "LISTEN_FDS", "JOURNAL_STREAM",
        "DBUS_SESSION_BUS_ADDRESS",
    ]

    static var script: String {
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

    static let systemdScript = #"""
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
