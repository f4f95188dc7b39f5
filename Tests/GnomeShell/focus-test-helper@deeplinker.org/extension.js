// Test only (never shipped): exports org.deeplinker.Test.FocusHelper on the session bus at
// /org/deeplinker/Test/FocusHelper, so a test can leave the Overview and give a window the focus
// (the shell starts in the Overview, where new windows get no focus).
const {Gio, GLib, Shell} = imports.gi;
const Main = imports.ui.main;

const XML = `<node><interface name="org.deeplinker.Test.FocusHelper">
  <method name="Activate"><arg type="s" direction="in" name="id"/><arg type="b" direction="out" name="found"/></method>
  <method name="ActivateTimed"><arg type="s" direction="in" name="id"/><arg type="x" direction="out" name="monotonic_usec"/></method>
  <method name="Windows"><arg type="as" direction="out" name="ids"/></method>
  <method name="Focused"><arg type="s" direction="out" name="id"/></method>
</interface></node>`;

function idsOf(win) {
    return [win.get_gtk_application_id(), win.get_wm_class(), win.get_title()].filter(x => x);
}

class Helper {
    /** Leaves the Overview and focuses the window with this id (GTK application id, Wayland
     *  app_id or title), waiting for it when no window has it yet (a window may get its title or
     *  class after it is created). */
    ActivateAsync([id], invocation) {
        this._activate(id, () => invocation.return_value(new GLib.Variant('(b)', [true])));
    }

    /** Activate, answering the monotonic time (µs, CLOCK_MONOTONIC) just before the focus moved:
     *  mutter moves it, and notifies the focus extension, inside `activate()` (the benchmark). */
    ActivateTimedAsync([id], invocation) {
        this._activate(id, at => invocation.return_value(new GLib.Variant('(x)', [at])));
    }

    _activate(id, answer) {
        Main.overview.hide();
        const find = () => global.display.list_all_windows().find(w => idsOf(w).includes(id));
        const done = win => {
            const at = GLib.get_monotonic_time();
            win.activate(global.get_current_time());
            answer(at);
        };
        const now = find();
        if (now)
            return done(now);
        const handlers = [];
        const retry = () => {
            const win = find();
            if (!win || handlers.length === 0)
                return;
            handlers.splice(0).forEach(([object, handler]) => object.disconnect(handler));
            GLib.idle_add(GLib.PRIORITY_DEFAULT, () => {
                done(win);
                return GLib.SOURCE_REMOVE;
            });
        };
        const watch = win => {
            for (const property of ['notify::title', 'notify::wm-class', 'notify::gtk-application-id'])
                handlers.push([win, win.connect(property, retry)]);
        };
        global.display.list_all_windows().forEach(watch);
        handlers.push([global.display, global.display.connect('window-created', (display, win) => {
            watch(win);
            retry();
        })]);
    }

    Windows() {
        const tracker = Shell.WindowTracker.get_default();
        return global.display.list_all_windows().map(w => [...idsOf(w), tracker.get_window_app(w)?.get_id() ?? ''].join('|'));
    }

    Focused() {
        const win = global.display.focus_window;
        return win ? idsOf(win).join('|') : '';
    }
}

let exported = null;
let owner = 0;
let startup = 0;

function init() {
    return {
        enable() {
            exported = Gio.DBusExportedObject.wrapJSObject(XML, new Helper());
            exported.export(Gio.DBus.session, '/org/deeplinker/Test/FocusHelper');
            // The name says "the shell has started": tests wait for it.
            const own = () => {
                owner = Gio.bus_own_name_on_connection(Gio.DBus.session, 'org.deeplinker.Test.FocusHelper',
                    Gio.BusNameOwnerFlags.NONE, null, null);
            };
            if (Main.layoutManager._startingUp) {
                startup = Main.layoutManager.connect('startup-complete', () => {
                    Main.layoutManager.disconnect(startup);
                    startup = 0;
                    own();
                });
            } else {
                own();
            }
        },
        disable() {
            if (startup)
                Main.layoutManager.disconnect(startup);
            startup = 0;
            exported?.unexport();
            exported = null;
            if (owner)
                Gio.bus_unown_name(owner);
            owner = 0;
        },
    };
}
