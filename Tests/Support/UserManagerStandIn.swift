import DBusKit
import Foundation

/// A stand-in for the systemd user manager (none runs on these machines): a python process that
/// owns `org.freedesktop.systemd1` on a test bus and serves `org.freedesktop.systemd1.Manager`'s
/// `Environment` property from a file of `NAME=VALUE` lines (what `systemctl --user
/// show-environment` prints), read again at every call so a test can change it.
public final class UserManagerStandIn: Sendable {
    public let environmentFile: String
    private let process: TestProcess

    static let script = #"""
        import sys
        import dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib

        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(sys.argv[1])
        bus.set_exit_on_disconnect(True)
        env_file = sys.argv[2]
        MANAGER = "org.freedesktop.systemd1.Manager"

        def environment():
            with open(env_file) as f:
                return dbus.Array([l.rstrip("\n") for l in f if "=" in l], signature="s")

        class Manager(dbus.service.Object):
            @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="ss", out_signature="v")
            def Get(self, interface, name):
                if interface == MANAGER and name == "Environment":
                    return environment()
                raise dbus.exceptions.DBusException("unknown property " + name, name="org.freedesktop.DBus.Error.UnknownProperty")

            @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="s", out_signature="a{sv}")
            def GetAll(self, interface):
                return {"Environment": environment()} if interface == MANAGER else {}

        manager = Manager(bus, "/org/freedesktop/systemd1")
        name = dbus.service.BusName("org.freedesktop.systemd1", bus, do_not_queue=True)
        GLib.MainLoop().run()
        """#

    /// Starts the stand-in on `fixture`'s bus with `environment` as its file's text; returns once
    /// it owns its name.
    public init(_ fixture: DaemonFixture, environment: String) async throws {
        environmentFile = fixture.root + "/user-manager.env"
        try environment.write(toFile: environmentFile, atomically: true, encoding: .utf8)
        process = try TestProcess(
            executable: "/usr/bin/python3", arguments: ["-c", Self.script, fixture.bus.address, environmentFile],
            environment: ProcessInfo.processInfo.environment)
        _ = try await fixture.client.waitForOwner("org.freedesktop.systemd1")
    }

    /// Replaces the manager's environment (as `systemctl --user import-environment` would).
    public func setEnvironment(_ text: String) throws {
        try text.write(toFile: environmentFile, atomically: true, encoding: .utf8)
    }

    public func stop() { process.stop() }
}
