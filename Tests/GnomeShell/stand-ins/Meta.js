// Stand-in for gi://Meta in the extension's logic tests: only what gnome-45/extension.js uses.
export default {WindowClientType: {WAYLAND: 0, X11: 1}};
