#!/usr/bin/python3
# A stand-in app: owns com.bestrecipes.App, answers ActivateAction, becomes active when told.
import dbus, dbus.service, sys
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib
DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
name = dbus.service.BusName('com.bestrecipes.App', bus)
class App(dbus.service.Object):
    @dbus.service.method('org.freedesktop.Application', in_signature='sava{sv}', out_signature='')
    def ActivateAction(self, target, params, data):
        print('ActivateAction', target, dict(params[0]), data['deeplinker.invocation-id'], flush=True)
    @dbus.service.signal('org.deeplinker.Lifecycle1', signature='')
    def BecameActive(self): pass
app = App(bus, '/com/bestrecipes/App')
GLib.timeout_add(1500, lambda: app.BecameActive() or False)
GLib.timeout_add(3000, lambda: sys.exit(0))  # a demo: exits after 3 s
GLib.MainLoop().run()
