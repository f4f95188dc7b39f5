// Test only (never shipped): exports org.deeplinker.Test.FocusHelper on the session bus at
// /org/deeplinker/Test/FocusHelper, so a test can leave the Overview and give a window the focus
// (the shell starts in the Overview, where new windows get no focus).
const {Gio, GLib} = imports.gi;
const Main = imports.ui.main;

const XML = `<node><interface name="org.deeplinker.Test.FocusHelper">
  <method name="Activate"><arg type="s" direction="in" name="id"/><arg type="b" direction="out" name="found"/></method>
  <method name="Windows"><arg type="as" direction="out" name="ids"/></method>
  <method name="Focused"><arg type="s" direction="out" name="id"/></method>
</interface></node>`;

function idsOf(win) {
    return [win.get_gtk_application_id(), win.get_wm_class(), win.get_title()].filter(x => x);
}

class Helper {
    /** Leaves the Overview and focuses the window with this id (GTK application id, Wayland
     *  app_id or title), waiting for it to appear when it is not there yet. */
    ActivateAsync([id], invocation) {
        Main.overview.hide();
        const activate = win => {
            win.activate(global.get_current_time());
            invocation.return_value(new GLib.Variant('(b)', [true]));
        };
        for (const actor of global.get_window_actors()) {
            const win = actor.get_meta_window();
            if (idsOf(win).includes(id))
                return activate(win);
        }
        const handler = global.display.connect('window-created', (display, win) => {
            if (!idsOf(win).includes(id))
                return;
            global.display.disconnect(handler);
            // After the shell has placed it.
            GLib.idle_add(GLib.PRIORITY_DEFAULT, () => {
                activate(win);
                return GLib.SOURCE_REMOVE;
            });
        });
    }

    Windows() {
        return global.get_window_actors().map(a => idsOf(a.get_meta_window()).join('|'));
    }

    Focused() {
        const win = global.display.focus_window;
        return win ? idsOf(win).join('|') : '';
    }
}

let exported = null;
let owner = 0;

function init() {
    return {
        enable() {
            exported = Gio.DBusExportedObject.wrapJSObject(XML, new Helper());
            exported.export(Gio.DBus.session, '/org/deeplinker/Test/FocusHelper');
            owner = Gio.bus_own_name_on_connection(Gio.DBus.session, 'org.deeplinker.Test.FocusHelper',
                Gio.BusNameOwnerFlags.NONE, null, null);
        },
        disable() {
            exported?.unexport();
            exported = null;
            if (owner)
                Gio.bus_unown_name(owner);
            owner = 0;
        },
    };
}
