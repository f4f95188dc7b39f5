#!/usr/bin/python3
# The app for scripts/link-order/record: owns com.bestrecipes.App on $DBUS_SESSION_BUS_ADDRESS,
# says it became active, and prints "delivered" once the pending deeplink arrives (its reply to
# ActivateAction is the acknowledgement). It runs until terminated, answering later deliveries.
import dbus, dbus.service, sys
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib
DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()
name = dbus.service.BusName('com.bestrecipes.App', bus)
class App(dbus.service.Object):
    @dbus.service.method('org.freedesktop.Application', in_signature='sava{sv}', out_signature='')
    def ActivateAction(self, target, params, data):
        print('delivered', target, flush=True)
    @dbus.service.signal('org.deeplinker.Lifecycle1', signature='')
    def BecameActive(self): pass
app = App(bus, '/com/bestrecipes/App')
GLib.idle_add(lambda: app.BecameActive() or False)
GLib.MainLoop().run()
