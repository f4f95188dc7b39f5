// Drives the GNOME 45+ extension (gnome-45/extension.js with focus.js) outside GNOME Shell: the
// Shell modules it imports are replaced by stand-ins (stand-ins/), `global.display` by a
// stand-in display whose focus the test sets; Gio and GLib are the real ones, so its
// SetFocusedApp calls go to the real daemon on the session bus.
//
//   gjs -m extension-logic-test.js SHIPPED_DIR
// Commands on stdin, one per line, each answered "ok <command>" on stdout:
//   enable | disable | focus <window JSON or null> | check   (check runs the pure rules' cases)
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import System from 'system';

const [shipped] = ARGV;
const here = GLib.path_get_dirname(System.programPath);
const work = GLib.dir_make_tmp('deeplinker-extension-XXXXXX');

// The module as shipped, with only its Shell imports pointed at the stand-ins.
const read = path => new TextDecoder().decode(GLib.file_get_contents(path)[1]);
const write = (path, text) => GLib.file_set_contents(path, text);
write(`${work}/focus.js`, read(`${shipped}/focus.js`));
write(`${work}/extension.js`, read(`${shipped}/gnome-45/extension.js`)
    .replace("'gi://Meta'", `'file://${here}/stand-ins/Meta.js'`)
    .replace("'gi://Shell'", `'file://${here}/stand-ins/Shell.js'`)
    .replace("'resource:///org/gnome/shell/extensions/extension.js'", `'file://${here}/stand-ins/extension.js'`));

class Display {
    constructor() {
        this.focus_window = null;
        this._handlers = new Map();
        this._next = 1;
    }

    connect(signal, callback) {
        this._handlers.set(this._next, [signal, callback]);
        return this._next++;
    }

    disconnect(id) {
        this._handlers.delete(id);
    }

    emit(signal) {
        for (const [name, callback] of [...this._handlers.values()]) {
            if (name === signal)
                callback(this);
        }
    }

    get handlerCount() {
        return this._handlers.size;
    }
}

/** A stand-in MetaWindow from a JSON description: sandboxed, gtk, wmClass, wayland, pid, trackerId, trackerHasEntry. */
function windowOf(d) {
    if (!d)
        return null;
    return {
        ...d,
        get_sandboxed_app_id: () => d.sandboxed ?? null,
        get_gtk_application_id: () => d.gtk ?? null,
        get_wm_class: () => d.wmClass ?? null,
        get_client_type: () => (d.wayland ? 0 : 1),
        get_pid: () => d.pid ?? 0,
    };
}

const display = new Display();
globalThis.global = {display};
const {default: DeeplinkerFocusExtension} = await import(`file://${work}/extension.js`);
const {appIdInCgroup, appIdOfUnit, isValidAppId} = await import(`file://${work}/focus.js`);
const extension = new DeeplinkerFocusExtension({uuid: 'focus@deeplinker.org'});

function check() {
    const cases = [
        [isValidAppId('org.example.App'), true],
        [isValidAppId('gtk3-demo'), false],
        [isValidAppId('org.1bad.App'), false],
        [appIdOfUnit('app-gnome-org.example.Scoped-1234.scope'), 'org.example.Scoped'],
        [appIdOfUnit('app-org.example.Svc@abc.service'), 'org.example.Svc'],
        [appIdOfUnit('app-flatpak-org.example.Dash\\x2dy-77.scope'), 'org.example.Dash-y'],
        [appIdOfUnit('session-2.scope'), null],
        [appIdInCgroup('0::/user.slice/user-0.slice/user@0.service/app.slice/app-gnome-org.example.Scoped-1234.scope\n'), 'org.example.Scoped'],
        [appIdInCgroup('0::/init.scope\n'), null],
    ];
    const failed = cases.map(([got, want], i) => [i, got, want]).filter(([, got, want]) => got !== want);
    return failed.length ? `failed ${JSON.stringify(failed)}` : 'passed';
}

const input = new Gio.DataInputStream({base_stream: new Gio.UnixInputStream({fd: 0, close_fd: false})});
const loop = new GLib.MainLoop(null, false);
function next() {
    input.read_line_async(GLib.PRIORITY_DEFAULT, null, (stream, result) => {
        const [bytes] = stream.read_line_finish_utf8(result);
        if (bytes === null) {
            loop.quit();
            return;
        }
        const [command, ...rest] = bytes.split(' ');
        let answer = '';
        if (command === 'enable') {
            extension.enable();
        } else if (command === 'disable') {
            extension.disable();
            answer = ` handlers=${display.handlerCount}`;
        } else if (command === 'focus') {
            display.focus_window = windowOf(JSON.parse(rest.join(' ')));
            display.emit('notify::focus-window');
        } else if (command === 'check') {
            answer = ` ${check()}`;
        }
        print(`ok ${command}${answer}`);
        next();
    });
}
next();
loop.run();
