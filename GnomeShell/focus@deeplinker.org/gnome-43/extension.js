// GNOME Shell 43 and 44: the extension as a script (`init()` returning enable/disable). The logic
// is the ES module focus.js beside this file, loaded with import(); it is in place before the
// first focus change is reported.
const {Gio, GLib, Meta, Shell} = imports.gi;
const ExtensionUtils = imports.misc.extensionUtils;

class DeeplinkerFocusExtension {
    constructor(path) {
        this._path = path;
        this._reporter = null;
        this._enabled = false;
        this._module = null;
    }

    enable() {
        this._enabled = true;
        this._module ??= import(`file://${this._path}/focus.js`);
        this._module.then(({FocusReporter}) => {
            if (!this._enabled || this._reporter)
                return;
            this._reporter = new FocusReporter({
                Gio, GLib,
                display: global.display,
                tracker: Shell.WindowTracker.get_default(),
                isWayland: win => win.get_client_type() === Meta.WindowClientType.WAYLAND,
                log: text => log(`focus@deeplinker.org: ${text}`),
            });
            this._reporter.enable();
        }).catch(e => logError(e, 'focus@deeplinker.org: cannot load focus.js'));
    }

    disable() {
        this._enabled = false;
        this._reporter?.disable();
        this._reporter = null;
    }
}

function init() {
    return new DeeplinkerFocusExtension(ExtensionUtils.getCurrentExtension().path);
}
