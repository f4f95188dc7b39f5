/// A stand-in app as a separate python process (dbus-python + GLib), for cold launches: started by
/// the daemon (`launch = [argv]`) or by the bus (`launch = "dbus"` with a service file). It owns the
/// app id's name, emits `BecameActive` once it does, and reports each `ActivateAction` and
/// `Activate` (target `(activate)`) it receives (before replying) as signal `org.deeplinker.Test1.Received(s app_id, s target, a{ss} parameters,
/// a{ss} platform_data_strings)`. It exits when the bus goes away.
public enum PythonStandIn {
    public static let interface = "org.deeplinker.Test1"

    public struct Received: Sendable {
        public let appID: String
        public let target: String
        public let parameters: [String: String]
        public let platformData: [String: String]

        public var invocationID: String { platformData["deeplinker.invocation-id"] ?? "" }
    }

    public static let script = #"""
        import os, sys
        import dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib

        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        app_id = sys.argv[1]
        address = sys.argv[2] if len(sys.argv) > 2 else os.environ["DBUS_STARTER_ADDRESS"]
        bus = dbus.bus.BusConnection(address)
        bus.set_exit_on_disconnect(True)
        path = "/" + app_id.replace(".", "/").replace("-", "_")

        class App(dbus.service.Object):
            @dbus.service.method("org.freedesktop.Application", in_signature="sava{sv}", out_signature="")
            def ActivateAction(self, name, parameter, platform_data):
                params = {}
                if len(parameter) > 0:
                    params = {str(k): str(v) for k, v in parameter[0].items()}
                data = {str(k): str(v) for k, v in platform_data.items()}
                self.Received(app_id, name, dbus.Dictionary(params, signature="ss"), dbus.Dictionary(data, signature="ss"))

            @dbus.service.method("org.freedesktop.Application", in_signature="a{sv}", out_signature="")
            def Activate(self, platform_data):
                data = {str(k): str(v) for k, v in platform_data.items()}
                self.Received(app_id, "(activate)", dbus.Dictionary({}, signature="ss"), dbus.Dictionary(data, signature="ss"))

            @dbus.service.signal("org.deeplinker.Test1", signature="ssa{ss}a{ss}")
            def Received(self, app, target, params, data):
                pass

            @dbus.service.signal("org.deeplinker.Lifecycle1", signature="")
            def BecameActive(self):
                pass

        app = App(bus, path)
        name = dbus.service.BusName(app_id, bus, do_not_queue=True)
        GLib.idle_add(lambda: app.BecameActive() and False)
        GLib.MainLoop().run()
        """#
}
