// Deeplinker's focus reporter for GNOME Shell (SPEC §6 "Readiness", `ready = "focus"`): tells the
// daemon which app's window has the input focus with `SetFocusedApp`, on every change and only on
// a change, again whenever the daemon's name appears, and `""` when disabled. No polling, no Eval.
//
// This is the one source of the extension's logic. It imports nothing: the GNOME 43–44 script
// (gnome-43/extension.js) and the GNOME 45+ module (gnome-45/extension.js) pass in the libraries
// and the shell's objects, so tests can pass stand-ins.

export const BUS_NAME = 'org.deeplinker.Deeplinker1';
export const OBJECT_PATH = '/org/deeplinker/Deeplinker1';
export const INTERFACE = 'org.deeplinker.Deeplinker1';

/** Whether `id` is an app id as the daemon accepts it: reverse-DNS with a dot (DeeplinkerCore's AppID). */
export function isValidAppId(id) {
    if (typeof id !== 'string' || id.length === 0 || id.length > 255)
        return false;
    const elements = id.split('.');
    return elements.length >= 2 && elements.every(e => /^[A-Za-z_-][A-Za-z0-9_-]*$/.test(e));
}

/** systemd's unit-name escaping undone: `\xNN` → the byte. */
function unescapeUnit(text) {
    return text.replace(/\\x([0-9a-fA-F]{2})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * The app id in a unit name of the desktop convention, `app[-<launcher>]-<app-id>-<random>.scope`
 * or `app[-<launcher>]-<app-id>[@<random>].service`; null when it does not follow it
 * (FocusWatch's ScopeName, the same rule).
 */
export function appIdOfUnit(unit) {
    if (!unit.startsWith('app-'))
        return null;
    let body = unit.slice(4);
    let parts;
    if (body.endsWith('.scope')) {
        parts = body.slice(0, -6).split('-');
        if (parts.length < 2)
            return null;
        parts.pop();
    } else if (body.endsWith('.service')) {
        body = body.slice(0, -8);
        const at = body.indexOf('@');
        if (at >= 0)
            body = body.slice(0, at);
        parts = body.split('-');
    } else {
        return null;
    }
    const candidates = parts.length >= 2 ? [parts.slice(1).join('-'), parts.join('-')] : [parts.join('-')];
    for (const candidate of candidates) {
        const id = unescapeUnit(candidate);
        if (isValidAppId(id))
            return id;
    }
    return null;
}

/** The app id of the innermost `app-….scope`/`.service` in a `/proc/PID/cgroup` text, or null. */
export function appIdInCgroup(text) {
    for (const line of text.split('\n')) {
        const first = line.indexOf(':');
        const second = first < 0 ? -1 : line.indexOf(':', first + 1);
        if (second < 0)
            continue;
        const units = line.slice(second + 1).split('/').reverse();
        for (const unit of units) {
            const id = appIdOfUnit(unit);
            if (id)
                return id;
        }
    }
    return null;
}

export class FocusReporter {
    /**
     * @param {object} deps
     * @param deps.Gio, deps.GLib  the GI modules (or stand-ins)
     * @param deps.display  `global.display` (its `focus-window` and `notify::focus-window`)
     * @param deps.tracker  `Shell.WindowTracker.get_default()`
     * @param deps.isWayland  (win) => whether the window is a Wayland client (its wm class is then its app_id)
     * @param deps.log  (text) => void
     */
    constructor({Gio, GLib, display, tracker, isWayland, log}) {
        this._Gio = Gio;
        this._GLib = GLib;
        this._display = display;
        this._tracker = tracker;
        this._isWayland = isWayland ?? (() => false);
        this._log = log ?? (() => {});
        this._current = null;
        this._daemonPresent = false;
        this._focusHandler = 0;
        this._watch = 0;
    }

    enable() {
        this._current = this.appIdOf(this._display.focus_window);
        this._focusHandler = this._display.connect('notify::focus-window', () => this._focusChanged());
        // Called at once when the daemon runs, and again each time it (re)appears: it learns the focus.
        this._watch = this._Gio.bus_watch_name(this._Gio.BusType.SESSION, BUS_NAME, this._Gio.BusNameWatcherFlags.NONE,
            () => {
                this._daemonPresent = true;
                this._send(this._current ?? '');
            },
            () => {
                this._daemonPresent = false;
            });
    }

    disable() {
        if (this._focusHandler)
            this._display.disconnect(this._focusHandler);
        if (this._watch)
            this._Gio.bus_unwatch_name(this._watch);
        this._focusHandler = 0;
        this._watch = 0;
        // No window's app keeps the focus the reporter gave it.
        if (this._daemonPresent && this._current !== '')
            this._send('');
        this._current = null;
        this._daemonPresent = false;
    }

    _focusChanged() {
        const id = this.appIdOf(this._display.focus_window);
        if (id === this._current)
            return;
        this._current = id;
        if (this._daemonPresent)
            this._send(id);
    }

    /** The app id of a window in SPEC §6's order; `""` for no window or one of no known app. */
    appIdOf(win) {
        if (!win)
            return '';
        const sandboxed = win.get_sandboxed_app_id?.();
        if (isValidAppId(sandboxed))
            return sandboxed;
        const gtk = win.get_gtk_application_id?.();
        if (isValidAppId(gtk))
            return gtk;
        const wmClass = win.get_wm_class?.() ?? null;
        if (this._isWayland(win) && isValidAppId(wmClass))
            return wmClass;
        const app = this._tracker?.get_window_app(win);
        if (app && app.get_app_info()) {
            const desktopId = (app.get_id() ?? '').replace(/\.desktop$/, '');
            if (isValidAppId(desktopId))
                return desktopId;
        }
        const pid = win.get_pid?.() ?? 0;
        if (pid > 0) {
            const id = this._scopeAppId(pid);
            if (id)
                return id;
        }
        if (wmClass)
            return this._startupWMClassAppId(wmClass) ?? '';
        return '';
    }

    _scopeAppId(pid) {
        try {
            const [ok, bytes] = this._GLib.file_get_contents(`/proc/${pid}/cgroup`);
            return ok ? appIdInCgroup(new TextDecoder().decode(bytes)) : null;
        } catch (e) {
            return null;
        }
    }

    /** The desktop entry whose `StartupWMClass` equals the window's class. */
    _startupWMClassAppId(wmClass) {
        for (const info of this._Gio.AppInfo.get_all()) {
            if (info.get_startup_wm_class?.() !== wmClass)
                continue;
            const id = (info.get_id() ?? '').replace(/\.desktop$/, '');
            if (isValidAppId(id))
                return id;
        }
        return null;
    }

    _send(id) {
        this._Gio.DBus.session.call(BUS_NAME, OBJECT_PATH, INTERFACE, 'SetFocusedApp',
            new this._GLib.Variant('(s)', [id]), null, this._Gio.DBusCallFlags.NO_AUTO_START, 5000, null,
            (connection, result) => {
                try {
                    connection.call_finish(result);
                } catch (e) {
                    this._log(`SetFocusedApp(${JSON.stringify(id)}) failed: ${e.message}`);
                }
            });
    }
}
