// GNOME Shell 45 and later: the extension as an ES module. The logic is in ../focus.js, which
// `deeplinker install-gnome-extension` installs beside this file.
import Gio from 'gi://Gio';
import GLib from 'gi://GLib';
import Meta from 'gi://Meta';
import Shell from 'gi://Shell';
import {Extension} from 'resource:///org/gnome/shell/extensions/extension.js';

import {FocusReporter} from './focus.js';

export default class DeeplinkerFocusExtension extends Extension {
    enable() {
        this._reporter = new FocusReporter({
            Gio, GLib,
            display: global.display,
            tracker: Shell.WindowTracker.get_default(),
            isWayland: win => win.get_client_type() === Meta.WindowClientType.WAYLAND,
            log: text => console.log(`focus@deeplinker.org: ${text}`),
        });
        this._reporter.enable();
    }

    disable() {
        this._reporter?.disable();
        this._reporter = null;
    }
}
